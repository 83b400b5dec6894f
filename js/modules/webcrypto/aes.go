package webcrypto

import (
	"crypto/aes"
	gocipher "crypto/cipher"
	"crypto/rand"
	"fmt"
	"math/big"
	"strings"
)

// aesFamily is one of AES-GCM, AES-CBC and AES-CTR: 128-, 192- or 256-bit
// secret keys that encrypt and decrypt.
type aesFamily struct{ name string }

var (
	_ family      = aesFamily{}
	_ cipher      = aesFamily{}
	_ keyLengther = aesFamily{}
)

// aesUsages are the usages of an AES key.
var aesUsages = []string{"encrypt", "decrypt", "wrapKey", "unwrapKey"}

// keyLength returns the length member: 128, 192 or 256, an
// OperationError otherwise.
func (f aesFamily) keyLength(p *params) (int, error) {
	n, err := p.integer("length", true, 0)
	if err != nil {
		return 0, err
	}
	if n != 128 && n != 192 && n != 256 {
		return 0, fail(errOperation, "%s: length must be 128, 192 or 256, not %d", f.name, n)
	}
	return n, nil
}

// generateKey makes a random key of keyLength bits.
func (f aesFamily) generateKey(p *params, extractable bool, usages []string) (work, error) {
	if err := checkUsages(f.name, usages, aesUsages...); err != nil {
		return nil, err
	}
	bits, err := f.keyLength(p)
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		secret := make([]byte, bits/8)
		_, _ = rand.Read(secret)
		return f.key(secret, extractable, usages), nil
	}, nil
}

func (f aesFamily) key(secret []byte, extractable bool, usages []string) *Key {
	return &Key{Type: secretKey, Extractable: extractable, Usages: usages, handle: secret,
		Algorithm: KeyAlgorithm{Name: f.name, Length: len(secret) * 8}}
}

// jwkAlg is the JWK alg of a key of bits: A128GCM, A256CBC ….
func (f aesFamily) jwkAlg(bits int) string {
	return fmt.Sprintf("A%d%s", bits, strings.TrimPrefix(f.name, "AES-"))
}

// importKey reads a raw or JWK secret of 16, 24 or 32 bytes.
func (f aesFamily) importKey(format string, _ *params, extractable bool, usages []string) (importer, error) {
	if err := checkUsages(f.name, usages, aesUsages...); err != nil {
		return nil, err
	}
	if format != "raw" && format != "jwk" {
		return nil, fail(errNotSupported, "%s keys are imported as raw or jwk, not %s", f.name, format)
	}
	return func(d keyData) (*Key, error) {
		secret := d.raw
		if format == "jwk" {
			var err error
			if secret, err = d.jwk.bytes("k", true); err != nil {
				return nil, err
			}
			if err := d.jwk.check("oct", "enc", f.jwkAlg(len(secret)*8), extractable, usages); err != nil {
				return nil, err
			}
		}
		if n := len(secret); n != 16 && n != 24 && n != 32 {
			return nil, fail(errData, "%s: a key has 16, 24 or 32 bytes, not %d", f.name, n)
		}
		return f.key(secret, extractable, usages), nil
	}, nil
}

// exportKey returns the secret as raw bytes or an "oct" JWK.
func (f aesFamily) exportKey(format string, k *Key) (any, error) {
	return exportSecret(format, k, f.jwkAlg(k.Algorithm.Length), f.name)
}

// encrypt reads the mode's parameters and encrypts data.
func (f aesFamily) encrypt(p *params, k *Key, data []byte) (work, error) {
	return f.crypt(p, k, data, true)
}

// decrypt reads the mode's parameters and decrypts data.
func (f aesFamily) decrypt(p *params, k *Key, data []byte) (work, error) {
	return f.crypt(p, k, data, false)
}

func (f aesFamily) crypt(p *params, k *Key, data []byte, encrypt bool) (work, error) {
	block, err := aes.NewCipher(k.handle.([]byte))
	if err != nil {
		return nil, fail(errOperation, "%s: %v", f.name, err)
	}
	switch f.name {
	case aesCBCName:
		iv, _, err := p.bytes("iv", true)
		if err != nil {
			return nil, err
		}
		return cbcWork(block, iv, data, encrypt)
	case aesCTRName:
		return ctrWork(p, block, data)
	}
	return gcmWork(p, block, data, encrypt)
}

// cbcWork is AES-CBC with PKCS #7 padding and a 16-byte iv.
func cbcWork(block gocipher.Block, iv, data []byte, encrypt bool) (work, error) {
	if len(iv) != aes.BlockSize {
		return nil, fail(errOperation, "AES-CBC: iv must have 16 bytes, not %d", len(iv))
	}
	if encrypt {
		return func() (any, error) {
			pad := aes.BlockSize - len(data)%aes.BlockSize
			out := append(data, make([]byte, pad)...)
			for i := len(data); i < len(out); i++ {
				out[i] = byte(pad)
			}
			gocipher.NewCBCEncrypter(block, iv).CryptBlocks(out, out)
			return out, nil
		}, nil
	}
	return func() (any, error) {
		if len(data) == 0 || len(data)%aes.BlockSize != 0 {
			return nil, fail(errOperation, "AES-CBC: the ciphertext has %d bytes, not a positive multiple of 16", len(data))
		}
		out := make([]byte, len(data))
		gocipher.NewCBCDecrypter(block, iv).CryptBlocks(out, data)
		pad := int(out[len(out)-1])
		if pad == 0 || pad > aes.BlockSize {
			return nil, fail(errOperation, "AES-CBC: bad padding")
		}
		for _, b := range out[len(out)-pad:] {
			if int(b) != pad {
				return nil, fail(errOperation, "AES-CBC: bad padding")
			}
		}
		return out[:len(out)-pad], nil
	}, nil
}

// ctrWork is AES-CTR with a 16-byte counter block whose rightmost length
// bits count the blocks (wrapping to 0, the other bits stay as they are).
// Encryption and decryption are the same operation.
func ctrWork(p *params, block gocipher.Block, data []byte) (work, error) {
	counter, _, err := p.bytes("counter", true)
	if err != nil {
		return nil, err
	}
	length, err := p.integer("length", true, 0)
	if err != nil {
		return nil, err
	}
	if len(counter) != aes.BlockSize {
		return nil, fail(errOperation, "AES-CTR: counter must have 16 bytes, not %d", len(counter))
	}
	if length == 0 || length > 128 {
		return nil, fail(errOperation, "AES-CTR: length must be 1 to 128, not %d", length)
	}
	blocks := (len(data) + aes.BlockSize - 1) / aes.BlockSize
	if length < 63 && blocks > 1<<length {
		return nil, fail(errOperation, "AES-CTR: %d blocks would repeat a %d-bit counter", blocks, length)
	}
	return func() (any, error) { return ctrCrypt(block, counter, length, data), nil }, nil
}

// ctrCrypt XORs data with the key stream of counter blocks: block i is the
// counter's high 128-length bits followed by (low bits + i) mod 2^length.
func ctrCrypt(block gocipher.Block, counter []byte, length int, data []byte) []byte {
	c := new(big.Int).SetBytes(counter)
	mod := new(big.Int).Lsh(big.NewInt(1), uint(length))
	low := new(big.Int).Mod(c, mod)
	high := new(big.Int).Sub(c, low)
	out := make([]byte, len(data))
	var cb, ks [aes.BlockSize]byte
	for i := 0; i < len(data); i += aes.BlockSize {
		n := new(big.Int).Add(high, low)
		n.FillBytes(cb[:])
		block.Encrypt(ks[:], cb[:])
		for j := i; j < len(data) && j < i+aes.BlockSize; j++ {
			out[j] = data[j] ^ ks[j-i]
		}
		low.Add(low, big.NewInt(1))
		if low.Cmp(mod) == 0 {
			low.SetInt64(0)
		}
	}
	return out
}

// gcmTagLengths are the tag lengths, in bits, the specification allows.
var gcmTagLengths = map[int]bool{32: true, 64: true, 96: true, 104: true, 112: true, 120: true, 128: true}

// gcmWork is AES-GCM with an iv, optional additionalData and a tagLength
// (default 128 bits). Go's GCM takes tags of 96 to 128 bits, and an iv
// other than 12 bytes only with 128-bit tags: other combinations are a
// NotSupportedError.
func gcmWork(p *params, block gocipher.Block, data []byte, encrypt bool) (work, error) {
	iv, _, err := p.bytes("iv", true)
	if err != nil {
		return nil, err
	}
	aad, _, err := p.bytes("additionalData", false)
	if err != nil {
		return nil, err
	}
	tagBits, err := p.integer("tagLength", false, 128)
	if err != nil {
		return nil, err
	}
	aead, err := newGCM(block, len(iv), tagBits)
	if err != nil {
		return nil, err
	}
	if encrypt {
		return func() (any, error) { return aead.Seal(nil, iv, data, aad), nil }, nil
	}
	return func() (any, error) {
		if len(data) < tagBits/8 {
			return nil, fail(errOperation, "AES-GCM: the ciphertext has %d bytes, shorter than the %d-bit tag", len(data), tagBits)
		}
		out, err := aead.Open(nil, iv, data, aad)
		if err != nil {
			return nil, fail(errOperation, "AES-GCM: the ciphertext or its tag is not authentic")
		}
		return out, nil
	}, nil
}

func newGCM(block gocipher.Block, ivLen, tagBits int) (gocipher.AEAD, error) {
	switch {
	case ivLen == 0:
		return nil, fail(errOperation, "AES-GCM: iv must not be empty")
	case !gcmTagLengths[tagBits]:
		return nil, fail(errOperation, "AES-GCM: tagLength must be 32, 64, 96, 104, 112, 120 or 128, not %d", tagBits)
	case tagBits < 96:
		return nil, fail(errNotSupported, "AES-GCM: tagLength %d is not supported (Go's GCM takes 96 to 128)", tagBits)
	case tagBits == 128 && ivLen != 12:
		return gocipher.NewGCMWithNonceSize(block, ivLen)
	case ivLen != 12:
		return nil, fail(errNotSupported, "AES-GCM: an iv of %d bytes is supported only with a 128-bit tagLength", ivLen)
	}
	return gocipher.NewGCMWithTagSize(block, tagBits/8)
}
