package webcrypto

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
)

// okpFamily is Ed25519 (signatures) or X25519 (key agreement): the
// "octet key pair" curves of RFC 8037. Ed25519 keys are ed25519.PublicKey
// and ed25519.PrivateKey, X25519 keys *ecdh.PublicKey and
// *ecdh.PrivateKey.
type okpFamily struct{ name string }

var (
	_ family  = okpFamily{}
	_ signer  = okpFamily{}
	_ deriver = okpFamily{}
)

// usagesFor returns the usages a key of type t may have.
func (f okpFamily) usagesFor(t string) []string {
	switch {
	case f.name == ed25519Name && t == publicKey:
		return []string{"verify"}
	case f.name == ed25519Name:
		return []string{"sign"}
	case t == publicKey:
		return nil
	}
	return []string{"deriveKey", "deriveBits"}
}

func (f okpFamily) key(handle any, extractable bool, usages []string) *Key {
	t := privateKey
	switch handle.(type) {
	case ed25519.PublicKey, *ecdh.PublicKey:
		t = publicKey
	}
	return &Key{Type: t, Extractable: extractable, Usages: usages, handle: handle, Algorithm: KeyAlgorithm{Name: f.name}}
}

// generateKey makes a key pair; the public key is always extractable.
func (f okpFamily) generateKey(_ *params, extractable bool, usages []string) (work, error) {
	if err := checkUsages(f.name, usages, append(f.usagesFor(publicKey), f.usagesFor(privateKey)...)...); err != nil {
		return nil, err
	}
	return func() (any, error) {
		var pub, priv any
		if f.name == ed25519Name {
			pub, priv, _ = ed25519.GenerateKey(rand.Reader)
		} else {
			k, err := ecdh.X25519().GenerateKey(rand.Reader)
			if err != nil {
				return nil, err
			}
			pub, priv = k.PublicKey(), k
		}
		return keyPair{
			public:  f.key(pub, true, intersect(usages, f.usagesFor(publicKey)...)),
			private: f.key(priv, extractable, intersect(usages, f.usagesFor(privateKey)...)),
		}, nil
	}, nil
}

// importKey reads a public key (raw, spki, jwk) or a private key (pkcs8,
// jwk with d).
func (f okpFamily) importKey(format string, _ *params, extractable bool, usages []string) (importer, error) {
	return func(d keyData) (*Key, error) {
		handle, err := f.parse(format, d, extractable, usages)
		if err != nil {
			return nil, err
		}
		k := f.key(handle, extractable, usages)
		if err := checkUsages(f.name, usages, f.usagesFor(k.Type)...); err != nil {
			return nil, err
		}
		return k, nil
	}, nil
}

func (f okpFamily) parse(format string, d keyData, extractable bool, usages []string) (any, error) {
	var handle any
	var err error
	switch format {
	case "raw":
		handle, err = f.publicFromBytes(d.raw)
	case "spki":
		handle, err = x509.ParsePKIXPublicKey(d.raw)
	case "pkcs8":
		handle, err = x509.ParsePKCS8PrivateKey(d.raw)
	case "jwk":
		return f.parseJWK(d.jwk, extractable, usages)
	}
	if err != nil {
		return nil, fail(errData, "%s: the %s key is not valid: %v", f.name, format, err)
	}
	switch k := handle.(type) {
	case ed25519.PublicKey, ed25519.PrivateKey:
		if f.name == ed25519Name {
			return k, nil
		}
	case *ecdh.PublicKey:
		if k.Curve() == ecdh.X25519() && f.name == x25519Name {
			return k, nil
		}
	case *ecdh.PrivateKey:
		if k.Curve() == ecdh.X25519() && f.name == x25519Name {
			return k, nil
		}
	}
	return nil, fail(errData, "%s: the %s key is a %T, not an %s key", f.name, format, handle, f.name)
}

// publicFromBytes reads a 32-byte public key.
func (f okpFamily) publicFromBytes(b []byte) (any, error) {
	if f.name == x25519Name {
		return ecdh.X25519().NewPublicKey(b)
	}
	if len(b) != ed25519.PublicKeySize {
		return nil, fail(errData, "Ed25519: a public key has 32 bytes, not %d", len(b))
	}
	return ed25519.PublicKey(b), nil
}

// privateFromBytes reads a 32-byte private key (Ed25519's seed); for
// Ed25519 the 64 bytes of seed and public key are accepted too.
func (f okpFamily) privateFromBytes(b []byte) (any, error) {
	if f.name == x25519Name {
		return ecdh.X25519().NewPrivateKey(b)
	}
	switch len(b) {
	case ed25519.SeedSize:
		return ed25519.NewKeyFromSeed(b), nil
	case ed25519.PrivateKeySize:
		return ed25519.NewKeyFromSeed(b[:ed25519.SeedSize]), nil
	}
	return nil, fail(errData, "Ed25519: a private key has 32 bytes, not %d", len(b))
}

// use is the JWK use of the family's keys.
func (f okpFamily) use() string {
	if f.name == ed25519Name {
		return "sig"
	}
	return "enc"
}

// parseJWK reads an "OKP" JWK: crv, x and, for a private key, d, which
// must match x.
func (f okpFamily) parseJWK(j jwk, extractable bool, usages []string) (any, error) {
	if err := j.check("OKP", f.use(), "", extractable, usages); err != nil {
		return nil, err
	}
	if alg, _ := j.str("alg", false); alg != "" && f.name == ed25519Name && alg != "EdDSA" && alg != "Ed25519" {
		return nil, fail(errData, "the JWK's alg is %q, want EdDSA or Ed25519", alg)
	}
	if crv, _ := j.str("crv", false); crv != f.name {
		return nil, fail(errData, "%s: the JWK's crv is %q", f.name, crv)
	}
	x, err := j.bytes("x", true)
	if err != nil {
		return nil, err
	}
	pub, err := f.publicFromBytes(x)
	if err != nil {
		return nil, fail(errData, "%s: the JWK's x is not valid: %v", f.name, err)
	}
	if _, ok := j["d"]; !ok {
		return pub, nil
	}
	d, err := j.bytes("d", true)
	if err != nil {
		return nil, err
	}
	priv, err := f.privateFromBytes(d)
	if err != nil {
		return nil, fail(errData, "%s: the JWK's d is not valid: %v", f.name, err)
	}
	if got, _ := f.publicBytes(priv); string(got) != string(x) {
		return nil, fail(errData, "%s: the JWK's d does not match its x", f.name)
	}
	return priv, nil
}

// publicBytes returns the 32 bytes of the public key of handle, and
// whether handle is a private key.
func (f okpFamily) publicBytes(handle any) ([]byte, bool) {
	switch k := handle.(type) {
	case ed25519.PublicKey:
		return k, false
	case ed25519.PrivateKey:
		return k.Public().(ed25519.PublicKey), true
	case *ecdh.PublicKey:
		return k.Bytes(), false
	case *ecdh.PrivateKey:
		return k.PublicKey().Bytes(), true
	}
	return nil, false
}

// exportKey writes a public key as raw, spki or jwk, a private key as
// pkcs8 or jwk (d is the 32-byte private key, as RFC 8037 says).
func (f okpFamily) exportKey(format string, k *Key) (any, error) {
	pub, private := f.publicBytes(k.handle)
	switch {
	case format == "jwk":
		j := newJWK("OKP", k)
		j["crv"] = f.name
		j.setBytes("x", pub)
		if ek, ok := k.handle.(ed25519.PrivateKey); ok {
			j.setBytes("d", ek.Seed())
		} else if xk, ok := k.handle.(*ecdh.PrivateKey); ok {
			j.setBytes("d", xk.Bytes())
		}
		return j, nil
	case format == "raw" && !private:
		return append([]byte(nil), pub...), nil
	case format == "spki" && !private:
		return x509.MarshalPKIXPublicKey(k.handle)
	case format == "pkcs8" && private:
		return x509.MarshalPKCS8PrivateKey(k.handle)
	}
	return nil, fail(errInvalidAcc, "a %s %s key can't be exported as %s", k.Type, f.name, format)
}

// sign is Ed25519's signature of data.
func (f okpFamily) sign(_ *params, k *Key, data []byte) (work, error) {
	priv, ok := k.handle.(ed25519.PrivateKey)
	if !ok {
		return nil, fail(errNotSupported, "%s does not sign", f.name)
	}
	return func() (any, error) { return ed25519.Sign(priv, data), nil }, nil
}

// verify checks an Ed25519 signature of data.
func (f okpFamily) verify(_ *params, k *Key, signature, data []byte) (work, error) {
	pub, ok := k.handle.(ed25519.PublicKey)
	if !ok {
		return nil, fail(errNotSupported, "%s does not verify", f.name)
	}
	return func() (any, error) {
		return len(signature) == ed25519.SignatureSize && ed25519.Verify(pub, data, signature), nil
	}, nil
}

// deriveBits is X25519: the shared secret of the private base key and the
// public member's key, truncated to length bits (all 256 when -1).
func (f okpFamily) deriveBits(p *params, k *Key, length int) (work, error) {
	if f.name != x25519Name {
		return nil, fail(errNotSupported, "%s does not derive bits", f.name)
	}
	v := p.get("public")
	if v == nil {
		return nil, fail(errType, "X25519: the member \"public\" is required")
	}
	pk, err := p.keys.key(v, "X25519's public")
	if err != nil {
		return nil, err
	}
	if pk.Type != publicKey || pk.Algorithm.Name != x25519Name {
		return nil, fail(errInvalidAcc, "X25519: public is a %s %s key, not a public X25519 one", pk.Type, pk.Algorithm.Name)
	}
	priv := k.handle.(*ecdh.PrivateKey)
	pub := pk.handle.(*ecdh.PublicKey)
	return func() (any, error) {
		secret, err := priv.ECDH(pub)
		if err != nil {
			return nil, fail(errOperation, "X25519: %v", err)
		}
		return truncateBits(secret, length)
	}, nil
}
