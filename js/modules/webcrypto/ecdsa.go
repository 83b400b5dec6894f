package webcrypto

import (
	"crypto/ecdsa"
	"crypto/rand"
	"math/big"
)

// ecdsaDigest reads the hash member of ECDSA's parameters and returns the
// hash of data with it.
func (f ecFamily) ecdsaDigest(p *params, data []byte) ([]byte, error) {
	if f.name != ecdsaName {
		return nil, fail(errNotSupported, "%s does not sign", f.name)
	}
	h, err := p.hash(true)
	if err != nil {
		return nil, err
	}
	d := hashes[h].New()
	d.Write(data)
	return d.Sum(nil), nil
}

// sign returns the ECDSA signature of data as the Web Crypto API encodes
// it: r and s, each as big-endian bytes of the curve's size.
func (f ecFamily) sign(p *params, k *Key, data []byte) (work, error) {
	digest, err := f.ecdsaDigest(p, data)
	if err != nil {
		return nil, err
	}
	priv, ok := k.handle.(*ecdsa.PrivateKey)
	if !ok {
		return nil, fail(errInvalidAcc, "ECDSA signs with a private key, not a %s one", k.Type)
	}
	return func() (any, error) {
		r, s, err := ecdsa.Sign(rand.Reader, priv, digest)
		if err != nil {
			return nil, err
		}
		n := curveSize(priv.Curve)
		out := make([]byte, 2*n)
		r.FillBytes(out[:n])
		s.FillBytes(out[n:])
		return out, nil
	}, nil
}

// verify checks an r‖s signature of data; one of the wrong length does not
// verify.
func (f ecFamily) verify(p *params, k *Key, signature, data []byte) (work, error) {
	digest, err := f.ecdsaDigest(p, data)
	if err != nil {
		return nil, err
	}
	pub, ok := k.handle.(*ecdsa.PublicKey)
	if !ok {
		return nil, fail(errInvalidAcc, "ECDSA verifies with a public key, not a %s one", k.Type)
	}
	return func() (any, error) {
		n := curveSize(pub.Curve)
		if len(signature) != 2*n {
			return false, nil
		}
		r := new(big.Int).SetBytes(signature[:n])
		s := new(big.Int).SetBytes(signature[n:])
		return ecdsa.Verify(pub, digest, r, s), nil
	}, nil
}
