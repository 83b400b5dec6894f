package webcrypto

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"strconv"
)

// ecFamily is ECDSA or ECDH: key pairs on the NIST curves P-256, P-384
// and P-521. Both keep their keys as *ecdsa.PrivateKey and
// *ecdsa.PublicKey; ECDH converts them when it derives.
type ecFamily struct{ name string }

var (
	_ family  = ecFamily{}
	_ signer  = ecFamily{}
	_ deriver = ecFamily{}
)

// curves are the named curves, by name.
var curves = map[string]elliptic.Curve{"P-256": elliptic.P256(), "P-384": elliptic.P384(), "P-521": elliptic.P521()}

// curveSize is the length in bytes of a coordinate, a scalar and each
// half of an ECDSA signature on c.
func curveSize(c elliptic.Curve) int { return (c.Params().BitSize + 7) / 8 }

// usagesFor returns the usages a key of type t may have.
func (f ecFamily) usagesFor(t string) []string {
	switch {
	case f.name == ecdsaName && t == publicKey:
		return []string{"verify"}
	case f.name == ecdsaName:
		return []string{"sign"}
	case t == publicKey:
		return nil
	}
	return []string{"deriveKey", "deriveBits"}
}

// namedCurve reads the namedCurve member.
func (f ecFamily) namedCurve(p *params) (string, elliptic.Curve, error) {
	v := p.get("namedCurve")
	if v == nil {
		return "", nil, fail(errType, "%s: the member \"namedCurve\" is required", f.name)
	}
	c, ok := curves[v.String()]
	if !ok {
		return "", nil, fail(errNotSupported, "%s: unknown namedCurve %q (want P-256, P-384 or P-521)", f.name, v.String())
	}
	return v.String(), c, nil
}

// key wraps an *ecdsa.PrivateKey or *ecdsa.PublicKey.
func (f ecFamily) key(handle any, curve string, extractable bool, usages []string) *Key {
	t := privateKey
	if _, ok := handle.(*ecdsa.PublicKey); ok {
		t = publicKey
	}
	return &Key{Type: t, Extractable: extractable, Usages: usages, handle: handle,
		Algorithm: KeyAlgorithm{Name: f.name, NamedCurve: curve}}
}

// generateKey makes a key pair; the public key is always extractable.
func (f ecFamily) generateKey(p *params, extractable bool, usages []string) (work, error) {
	if err := checkUsages(f.name, usages, append(f.usagesFor(publicKey), f.usagesFor(privateKey)...)...); err != nil {
		return nil, err
	}
	name, curve, err := f.namedCurve(p)
	if err != nil {
		return nil, err
	}
	return func() (any, error) {
		priv, err := ecdsa.GenerateKey(curve, rand.Reader)
		if err != nil {
			return nil, err
		}
		return keyPair{
			public:  f.key(&priv.PublicKey, name, true, intersect(usages, f.usagesFor(publicKey)...)),
			private: f.key(priv, name, extractable, intersect(usages, f.usagesFor(privateKey)...)),
		}, nil
	}, nil
}

// importKey reads a public key (raw uncompressed point, spki, jwk) or a
// private key (pkcs8, jwk with d) on namedCurve.
func (f ecFamily) importKey(format string, p *params, extractable bool, usages []string) (importer, error) {
	name, curve, err := f.namedCurve(p)
	if err != nil {
		return nil, err
	}
	return func(d keyData) (*Key, error) {
		handle, err := f.parse(format, d, curve, extractable, usages)
		if err != nil {
			return nil, err
		}
		k := f.key(handle, name, extractable, usages)
		if err := checkUsages(f.name, usages, f.usagesFor(k.Type)...); err != nil {
			return nil, err
		}
		return k, nil
	}, nil
}

// parse returns the key material of d on curve.
func (f ecFamily) parse(format string, d keyData, curve elliptic.Curve, extractable bool, usages []string) (any, error) {
	var handle any
	var err error
	switch format {
	case "raw":
		handle, err = ecdsa.ParseUncompressedPublicKey(curve, d.raw)
	case "spki":
		handle, err = x509.ParsePKIXPublicKey(d.raw)
	case "pkcs8":
		handle, err = x509.ParsePKCS8PrivateKey(d.raw)
	case "jwk":
		return f.parseJWK(d.jwk, curve, extractable, usages)
	}
	if err != nil {
		return nil, fail(errData, "%s: the %s key is not valid: %v", f.name, format, err)
	}
	var c elliptic.Curve
	switch k := handle.(type) {
	case *ecdsa.PublicKey:
		c = k.Curve
	case *ecdsa.PrivateKey:
		c = k.Curve
	default:
		return nil, fail(errData, "%s: the %s key is a %T, not an EC key", f.name, format, handle)
	}
	if c != curve {
		return nil, fail(errData, "%s: the key is on %s, not %s", f.name, c.Params().Name, curve.Params().Name)
	}
	return handle, nil
}

// jwkAlg is the JWK alg of an ECDSA key on curve c (ES256, ES384, ES512);
// ECDH keys have none.
func (f ecFamily) jwkAlg(c elliptic.Curve) string {
	if f.name != ecdsaName {
		return ""
	}
	bits := c.Params().BitSize
	if bits == 521 {
		bits = 512
	}
	return "ES" + strconv.Itoa(bits)
}

// use is the JWK use of the family's keys.
func (f ecFamily) use() string {
	if f.name == ecdsaName {
		return "sig"
	}
	return "enc"
}

// parseJWK reads an "EC" JWK: crv, x, y and, for a private key, d, which
// must match x and y. The key lies on the JWK's crv, as k6 reads it, also
// when that differs from the algorithm's namedCurve (the standard would
// refuse it; k6 scripts rely on k6 not checking); an unknown crv is a
// DataError.
func (f ecFamily) parseJWK(j jwk, curve elliptic.Curve, extractable bool, usages []string) (any, error) {
	if crv, _ := j.str("crv", false); crv != curve.Params().Name {
		c, ok := curves[crv]
		if !ok {
			return nil, fail(errData, "%s: the JWK's crv is %q, not P-256, P-384 or P-521", f.name, crv)
		}
		curve = c
	}
	if err := j.check("EC", f.use(), f.jwkAlg(curve), extractable, usages); err != nil {
		return nil, err
	}
	x, err := j.bytes("x", true)
	if err != nil {
		return nil, err
	}
	y, err := j.bytes("y", true)
	if err != nil {
		return nil, err
	}
	n := curveSize(curve)
	if len(x) != n || len(y) != n {
		return nil, fail(errData, "%s: the JWK's x and y must have %d bytes", f.name, n)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(curve, append(append([]byte{4}, x...), y...))
	if err != nil {
		return nil, fail(errData, "%s: the JWK's point is not valid: %v", f.name, err)
	}
	if _, ok := j["d"]; !ok {
		return pub, nil
	}
	dBytes, err := j.bytes("d", true)
	if err != nil {
		return nil, err
	}
	priv, err := ecdsa.ParseRawPrivateKey(curve, dBytes)
	if err != nil {
		return nil, fail(errData, "%s: the JWK's d is not valid: %v", f.name, err)
	}
	if !priv.PublicKey.Equal(pub) {
		return nil, fail(errData, "%s: the JWK's d does not match its x and y", f.name)
	}
	return priv, nil
}

// exportKey writes a public key as raw, spki or jwk, a private key as
// pkcs8 or jwk; other formats are an InvalidAccessError.
func (f ecFamily) exportKey(format string, k *Key) (any, error) {
	priv, _ := k.handle.(*ecdsa.PrivateKey)
	pub, _ := k.handle.(*ecdsa.PublicKey)
	if priv != nil {
		pub = &priv.PublicKey
	}
	switch {
	case format == "jwk":
		return f.exportJWK(k, pub, priv)
	case format == "raw" && priv == nil:
		return pub.Bytes()
	case format == "spki" && priv == nil:
		return x509.MarshalPKIXPublicKey(pub)
	case format == "pkcs8" && priv != nil:
		return x509.MarshalPKCS8PrivateKey(priv)
	}
	return nil, fail(errInvalidAcc, "a %s %s key can't be exported as %s", k.Type, f.name, format)
}

func (f ecFamily) exportJWK(k *Key, pub *ecdsa.PublicKey, priv *ecdsa.PrivateKey) (any, error) {
	point, err := pub.Bytes()
	if err != nil {
		return nil, err
	}
	n := curveSize(pub.Curve)
	j := newJWK("EC", k)
	j["crv"] = k.Algorithm.NamedCurve
	j.setBytes("x", point[1:1+n])
	j.setBytes("y", point[1+n:])
	if priv != nil {
		d, err := priv.Bytes()
		if err != nil {
			return nil, err
		}
		j.setBytes("d", d)
	}
	return j, nil
}
