package webcrypto

import (
	"crypto/hkdf"
	"crypto/pbkdf2"
)

// kdfFamily is PBKDF2 or HKDF: secret key material imported raw, never
// extractable, from which deriveBits and deriveKey derive.
type kdfFamily struct{ name string }

var (
	_ family  = kdfFamily{}
	_ deriver = kdfFamily{}
)

// generateKey is not defined for key derivation functions.
func (f kdfFamily) generateKey(*params, bool, []string) (work, error) {
	return nil, fail(errNotSupported, "%s keys are imported, not generated", f.name)
}

// importKey reads raw key material (a password for PBKDF2); the key must
// not be extractable.
func (f kdfFamily) importKey(format string, _ *params, extractable bool, usages []string) (importer, error) {
	if format != "raw" {
		return nil, fail(errNotSupported, "%s keys are imported as raw, not %s", f.name, format)
	}
	if extractable {
		return nil, fail(errSyntax, "%s keys can't be extractable", f.name)
	}
	if err := checkUsages(f.name, usages, "deriveKey", "deriveBits"); err != nil {
		return nil, err
	}
	return func(d keyData) (*Key, error) {
		return &Key{Type: secretKey, Usages: usages, handle: d.raw, Algorithm: KeyAlgorithm{Name: f.name}}, nil
	}, nil
}

// exportKey is never reached: the keys are not extractable.
func (f kdfFamily) exportKey(string, *Key) (any, error) {
	return nil, fail(errNotSupported, "%s keys can't be exported", f.name)
}

// deriveBits derives length bits, a multiple of 8: PBKDF2 with salt,
// iterations and hash, HKDF with hash, salt and info.
func (f kdfFamily) deriveBits(p *params, k *Key, length int) (work, error) {
	if length < 0 || length%8 != 0 {
		return nil, fail(errOperation, "%s: length must be a multiple of 8, not %d", f.name, length)
	}
	h, err := p.hash(true)
	if err != nil {
		return nil, err
	}
	salt, _, err := p.bytes("salt", true)
	if err != nil {
		return nil, err
	}
	secret := k.handle.([]byte)
	hash := hashes[h].New
	if f.name == hkdfName {
		info, _, err := p.bytes("info", true)
		if err != nil {
			return nil, err
		}
		return deriveWork(length, func() ([]byte, error) { return hkdf.Key(hash, secret, salt, string(info), length/8) })
	}
	iterations, err := p.integer("iterations", true, 0)
	if err != nil {
		return nil, err
	}
	if iterations == 0 {
		return nil, fail(errOperation, "PBKDF2: iterations must not be 0")
	}
	return deriveWork(length, func() ([]byte, error) {
		return pbkdf2.Key(hash, string(secret), salt, iterations, length/8)
	})
}

// deriveWork runs derive, or returns no bytes when length is 0; Go's
// errors (a length beyond the function's limit) are OperationErrors.
func deriveWork(length int, derive func() ([]byte, error)) (work, error) {
	return func() (any, error) {
		if length == 0 {
			return []byte{}, nil
		}
		out, err := derive()
		if err != nil {
			return nil, fail(errOperation, "%v", err)
		}
		return out, nil
	}, nil
}
