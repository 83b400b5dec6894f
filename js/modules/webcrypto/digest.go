package webcrypto

import (
	_ "crypto/sha1" // registers crypto.SHA1 for crypto.Hash.New
	_ "crypto/sha256"
	_ "crypto/sha512"
)

// digestWork returns the work of crypto.subtle.digest: the hash of data
// with one of SHA-1, SHA-256, SHA-384 and SHA-512.
func digestWork(name string, data []byte) (work, error) {
	h, ok := hashes[name]
	if !ok {
		return nil, fail(errNotSupported, "%s is not a digest algorithm", name)
	}
	return func() (any, error) {
		d := h.New()
		d.Write(data)
		return d.Sum(nil), nil
	}, nil
}
