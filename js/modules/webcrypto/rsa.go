package webcrypto

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"math/big"
	"strings"
)

// rsaFamily is RSASSA-PKCS1-v1_5, RSA-PSS or RSA-OAEP: RSA key pairs bound
// to a hash. The first two sign and verify, RSA-OAEP encrypts and
// decrypts.
type rsaFamily struct{ name string }

var (
	_ family = rsaFamily{}
	_ signer = rsaFamily{}
	_ cipher = rsaFamily{}
)

// f4 is the public exponent 65537, the only one Go generates.
var f4 = []byte{1, 0, 1}

// usagesFor returns the usages a key of type t may have.
func (f rsaFamily) usagesFor(t string) []string {
	switch {
	case f.name == rsaOAEPName && t == publicKey:
		return []string{"encrypt", "wrapKey"}
	case f.name == rsaOAEPName:
		return []string{"decrypt", "unwrapKey"}
	case t == publicKey:
		return []string{"verify"}
	}
	return []string{"sign"}
}

// key wraps an *rsa.PrivateKey or *rsa.PublicKey.
func (f rsaFamily) key(handle any, hash string, extractable bool, usages []string) *Key {
	t, pub := privateKey, (*rsa.PublicKey)(nil)
	switch k := handle.(type) {
	case *rsa.PublicKey:
		t, pub = publicKey, k
	case *rsa.PrivateKey:
		pub = &k.PublicKey
	}
	return &Key{Type: t, Extractable: extractable, Usages: usages, handle: handle,
		Algorithm: KeyAlgorithm{Name: f.name, Hash: hash, ModulusLength: pub.N.BitLen(),
			PublicExponent: big.NewInt(int64(pub.E)).Bytes()}}
}

// generateKey makes a key pair of modulusLength bits; the public exponent
// must be 65537 (Go generates no other), the public key is always
// extractable.
func (f rsaFamily) generateKey(p *params, extractable bool, usages []string) (work, error) {
	if err := checkUsages(f.name, usages, append(f.usagesFor(publicKey), f.usagesFor(privateKey)...)...); err != nil {
		return nil, err
	}
	bits, err := p.integer("modulusLength", true, 0)
	if err != nil {
		return nil, err
	}
	exp, _, err := p.bytes("publicExponent", true)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(bytes.TrimLeft(exp, "\x00"), f4) {
		return nil, fail(errNotSupported, "%s: only the publicExponent 65537 ([1, 0, 1]) is supported", f.name)
	}
	h, err := p.hash(true)
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		priv, err := rsa.GenerateKey(rand.Reader, bits)
		if err != nil {
			return nil, fail(errOperation, "%s: %v", f.name, err)
		}
		return keyPair{
			public:  f.key(&priv.PublicKey, h, true, intersect(usages, f.usagesFor(publicKey)...)),
			private: f.key(priv, h, extractable, intersect(usages, f.usagesFor(privateKey)...)),
		}, nil
	}, nil
}

// jwkAlg is the JWK alg of the family's keys with hash h: RS256, PS384,
// RSA-OAEP (SHA-1), RSA-OAEP-256 ….
func (f rsaFamily) jwkAlg(h string) string {
	bits := strings.TrimPrefix(h, "SHA-")
	switch {
	case f.name == rsaOAEPName && bits == "1":
		return "RSA-OAEP"
	case f.name == rsaOAEPName:
		return "RSA-OAEP-" + bits
	case f.name == rsaPSSName:
		return "PS" + bits
	}
	return "RS" + bits
}

// use is the JWK use of the family's keys.
func (f rsaFamily) use() string {
	if f.name == rsaOAEPName {
		return "enc"
	}
	return "sig"
}

// importKey reads a public key (spki, jwk) or a private key (pkcs8, jwk
// with d).
func (f rsaFamily) importKey(format string, p *params, extractable bool, usages []string) (importer, error) {
	if format == "raw" {
		return nil, fail(errNotSupported, "%s keys are imported as spki, pkcs8 or jwk, not raw", f.name)
	}
	h, err := p.hash(true)
	if err != nil {
		return nil, err
	}
	return func(d keyData) (*Key, error) {
		handle, err := f.parse(format, d, h, extractable, usages)
		if err != nil {
			return nil, err
		}
		k := f.key(handle, h, extractable, usages)
		if err := checkUsages(f.name, usages, f.usagesFor(k.Type)...); err != nil {
			return nil, err
		}
		return k, nil
	}, nil
}

func (f rsaFamily) parse(format string, d keyData, h string, extractable bool, usages []string) (any, error) {
	var handle any
	var err error
	switch format {
	case "spki":
		handle, err = x509.ParsePKIXPublicKey(d.raw)
	case "pkcs8":
		handle, err = x509.ParsePKCS8PrivateKey(d.raw)
	default:
		if err := d.jwk.check("RSA", f.use(), f.jwkAlg(h), extractable, usages); err != nil {
			return nil, err
		}
		return parseRSAJWK(d.jwk)
	}
	if err != nil {
		return nil, fail(errData, "%s: the %s key is not valid: %v", f.name, format, err)
	}
	switch handle.(type) {
	case *rsa.PublicKey, *rsa.PrivateKey:
		return handle, nil
	}
	return nil, fail(errData, "%s: the %s key is a %T, not an RSA key", f.name, format, handle)
}

// parseRSAJWK reads n and e, and d, p, q (dp, dq and qi are recomputed)
// for a private key.
func parseRSAJWK(j jwk) (any, error) {
	n, err := j.bigInt("n")
	if err != nil {
		return nil, err
	}
	e, err := j.bigInt("e")
	if err != nil {
		return nil, err
	}
	if !e.IsInt64() || e.Int64() < 3 || e.Int64() > 1<<31 {
		return nil, fail(errData, "RSA: the JWK's e is out of range")
	}
	pub := rsa.PublicKey{N: n, E: int(e.Int64())}
	if _, ok := j["d"]; !ok {
		return &pub, nil
	}
	var ints [3]*big.Int
	for i, name := range []string{"d", "p", "q"} {
		if ints[i], err = j.bigInt(name); err != nil {
			return nil, err
		}
	}
	priv := &rsa.PrivateKey{PublicKey: pub, D: ints[0], Primes: []*big.Int{ints[1], ints[2]}}
	if err := priv.Validate(); err != nil {
		return nil, fail(errData, "RSA: the JWK is not a valid private key: %v", err)
	}
	priv.Precompute()
	return priv, nil
}

// exportKey writes a public key as spki or jwk, a private key as pkcs8 or
// jwk.
func (f rsaFamily) exportKey(format string, k *Key) (any, error) {
	priv, _ := k.handle.(*rsa.PrivateKey)
	pub, _ := k.handle.(*rsa.PublicKey)
	if priv != nil {
		pub = &priv.PublicKey
	}
	switch {
	case format == "jwk":
		j := newJWK("RSA", k)
		j["alg"] = f.jwkAlg(k.Algorithm.Hash)
		j.setInt("n", pub.N)
		j.setInt("e", big.NewInt(int64(pub.E)))
		if priv != nil {
			j.setInt("d", priv.D)
			j.setInt("p", priv.Primes[0])
			j.setInt("q", priv.Primes[1])
			j.setInt("dp", priv.Precomputed.Dp)
			j.setInt("dq", priv.Precomputed.Dq)
			j.setInt("qi", priv.Precomputed.Qinv)
		}
		return j, nil
	case format == "spki" && priv == nil:
		return x509.MarshalPKIXPublicKey(pub)
	case format == "pkcs8" && priv != nil:
		return x509.MarshalPKCS8PrivateKey(priv)
	case format == "raw":
		return nil, fail(errNotSupported, "%s keys are exported as spki, pkcs8 or jwk, not raw", f.name)
	}
	return nil, fail(errInvalidAcc, "a %s %s key can't be exported as %s", k.Type, f.name, format)
}

// rsaDigest returns the hash of data with the key's hash.
func rsaDigest(k *Key, data []byte) []byte {
	d := hashes[k.Algorithm.Hash].New()
	d.Write(data)
	return d.Sum(nil)
}

// pssOptions reads RSA-PSS's saltLength. Go can't make a signature without
// salt: a saltLength of 0 signs is a NotSupportedError (verify accepts any
// salt then).
func (f rsaFamily) pssOptions(p *params, k *Key, signing bool) (*rsa.PSSOptions, error) {
	if f.name != rsaPSSName {
		return nil, nil
	}
	n, err := p.integer("saltLength", true, 0)
	if err != nil {
		return nil, err
	}
	if n == 0 && signing {
		return nil, fail(errNotSupported, "RSA-PSS: saltLength 0 is not supported (Go's signatures always have salt)")
	}
	return &rsa.PSSOptions{SaltLength: n, Hash: hashes[k.Algorithm.Hash]}, nil
}

// sign signs the hash of data with RSASSA-PKCS1-v1_5 or RSA-PSS.
func (f rsaFamily) sign(p *params, k *Key, data []byte) (work, error) {
	if f.name == rsaOAEPName {
		return nil, fail(errNotSupported, "RSA-OAEP does not sign")
	}
	opts, err := f.pssOptions(p, k, true)
	if err != nil {
		return nil, err
	}
	priv, ok := k.handle.(*rsa.PrivateKey)
	if !ok {
		return nil, fail(errInvalidAcc, "%s signs with a private key", f.name)
	}
	h := hashes[k.Algorithm.Hash]
	return func() (any, error) {
		digest := rsaDigest(k, data)
		var sig []byte
		var err error
		if opts != nil {
			sig, err = rsa.SignPSS(rand.Reader, priv, h, digest, opts)
		} else {
			sig, err = rsa.SignPKCS1v15(rand.Reader, priv, h, digest)
		}
		if err != nil {
			return nil, fail(errOperation, "%s: %v", f.name, err)
		}
		return sig, nil
	}, nil
}

// verify checks a signature of data.
func (f rsaFamily) verify(p *params, k *Key, signature, data []byte) (work, error) {
	if f.name == rsaOAEPName {
		return nil, fail(errNotSupported, "RSA-OAEP does not verify")
	}
	opts, err := f.pssOptions(p, k, false)
	if err != nil {
		return nil, err
	}
	pub, ok := k.handle.(*rsa.PublicKey)
	if !ok {
		return nil, fail(errInvalidAcc, "%s verifies with a public key", f.name)
	}
	h := hashes[k.Algorithm.Hash]
	return func() (any, error) {
		digest := rsaDigest(k, data)
		if opts != nil {
			return rsa.VerifyPSS(pub, h, digest, signature, opts) == nil, nil
		}
		return rsa.VerifyPKCS1v15(pub, h, digest, signature) == nil, nil
	}, nil
}

// oaepLabel reads RSA-OAEP's optional label.
func (f rsaFamily) oaepLabel(p *params) ([]byte, error) {
	if f.name != rsaOAEPName {
		return nil, fail(errNotSupported, "%s does not encrypt", f.name)
	}
	label, _, err := p.bytes("label", false)
	return label, err
}

// encrypt is RSA-OAEP encryption with the key's hash.
func (f rsaFamily) encrypt(p *params, k *Key, data []byte) (work, error) {
	label, err := f.oaepLabel(p)
	if err != nil {
		return nil, err
	}
	pub, ok := k.handle.(*rsa.PublicKey)
	if !ok {
		return nil, fail(errInvalidAcc, "RSA-OAEP encrypts with a public key")
	}
	return func() (any, error) {
		out, err := rsa.EncryptOAEP(hashes[k.Algorithm.Hash].New(), rand.Reader, pub, data, label)
		if err != nil {
			return nil, fail(errOperation, "RSA-OAEP: %v", err)
		}
		return out, nil
	}, nil
}

// decrypt is RSA-OAEP decryption with the key's hash.
func (f rsaFamily) decrypt(p *params, k *Key, data []byte) (work, error) {
	label, err := f.oaepLabel(p)
	if err != nil {
		return nil, err
	}
	priv, ok := k.handle.(*rsa.PrivateKey)
	if !ok {
		return nil, fail(errInvalidAcc, "RSA-OAEP decrypts with a private key")
	}
	return func() (any, error) {
		out, err := rsa.DecryptOAEP(hashes[k.Algorithm.Hash].New(), rand.Reader, priv, data, label)
		if err != nil {
			return nil, fail(errOperation, "RSA-OAEP: the ciphertext can't be decrypted")
		}
		return out, nil
	}, nil
}
