package webcrypto

import (
	"crypto/hmac"
	"crypto/rand"
	"strings"
)

// hmacFamily is HMAC: secret keys of any length bound to a hash, that sign
// and verify.
type hmacFamily struct{}

var (
	_ family      = hmacFamily{}
	_ signer      = hmacFamily{}
	_ keyLengther = hmacFamily{}
)

// hmacUsages are the usages of an HMAC key.
var hmacUsages = []string{"sign", "verify"}

// keyLength returns the length member, or the block size of the hash
// (512 bits for SHA-1 and SHA-256, 1024 for SHA-384 and SHA-512) when it
// is missing. A length of 0 is an OperationError.
func (hmacFamily) keyLength(p *params) (int, error) {
	h, err := p.hash(true)
	if err != nil {
		return 0, err
	}
	n, err := p.integer("length", false, hashes[h].New().BlockSize()*8)
	if err == nil && n == 0 {
		err = fail(errOperation, "HMAC: length must not be 0")
	}
	return n, err
}

// generateKey makes a random key of keyLength bits.
func (f hmacFamily) generateKey(p *params, extractable bool, usages []string) (work, error) {
	if err := checkUsages(hmacName, usages, hmacUsages...); err != nil {
		return nil, err
	}
	bits, err := f.keyLength(p)
	if err != nil {
		return nil, err
	}
	h, _ := p.hash(true)
	return func() (any, error) {
		secret := make([]byte, (bits+7)/8)
		_, _ = rand.Read(secret)
		return hmacKey(secret, bits, h, extractable, usages), nil
	}, nil
}

func hmacKey(secret []byte, bits int, hash string, extractable bool, usages []string) *Key {
	return &Key{Type: secretKey, Extractable: extractable, Usages: usages, handle: secret,
		Algorithm: KeyAlgorithm{Name: hmacName, Hash: hash, Length: bits}}
}

// hmacJWKAlg is the JWK alg of an HMAC key with hash h: HS1, HS256 ….
func hmacJWKAlg(h string) string { return "HS" + strings.TrimPrefix(h, "SHA-") }

// importKey reads a raw or JWK secret; an empty one is a DataError, and so
// is a length member that does not fit the secret.
func (hmacFamily) importKey(format string, p *params, extractable bool, usages []string) (importer, error) {
	if err := checkUsages(hmacName, usages, hmacUsages...); err != nil {
		return nil, err
	}
	if format != "raw" && format != "jwk" {
		return nil, fail(errNotSupported, "HMAC keys are imported as raw or jwk, not %s", format)
	}
	h, err := p.hash(true)
	if err != nil {
		return nil, err
	}
	length, err := p.integer("length", false, -1)
	if err != nil {
		return nil, err
	}
	return func(d keyData) (*Key, error) {
		secret := d.raw
		if format == "jwk" {
			if err := d.jwk.check("oct", "sig", hmacJWKAlg(h), extractable, usages); err != nil {
				return nil, err
			}
			if secret, err = d.jwk.bytes("k", true); err != nil {
				return nil, err
			}
		}
		bits := len(secret) * 8
		if bits == 0 {
			return nil, fail(errData, "HMAC: the key is empty")
		}
		if length >= 0 {
			if length > bits || length <= bits-8 {
				return nil, fail(errData, "HMAC: length %d does not fit a key of %d bytes", length, len(secret))
			}
			bits = length
		}
		return hmacKey(secret, bits, h, extractable, usages), nil
	}, nil
}

// exportKey returns the secret as raw bytes or an "oct" JWK.
func (hmacFamily) exportKey(format string, k *Key) (any, error) {
	return exportSecret(format, k, hmacJWKAlg(k.Algorithm.Hash), "HMAC")
}

// mac returns the HMAC of data with k.
func mac(k *Key, data []byte) []byte {
	m := hmac.New(hashes[k.Algorithm.Hash].New, k.handle.([]byte))
	m.Write(data)
	return m.Sum(nil)
}

// sign returns the HMAC of data.
func (hmacFamily) sign(_ *params, k *Key, data []byte) (work, error) {
	return func() (any, error) { return mac(k, data), nil }, nil
}

// verify compares signature with the HMAC of data in constant time.
func (hmacFamily) verify(_ *params, k *Key, signature, data []byte) (work, error) {
	return func() (any, error) { return hmac.Equal(mac(k, data), signature), nil }, nil
}
