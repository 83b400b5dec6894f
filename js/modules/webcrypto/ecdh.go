package webcrypto

import "crypto/ecdsa"

// deriveBits is ECDH: the shared secret of the private base key and the
// public member's key, truncated to length bits (all of it when length is
// -1). The public key must be an ECDH public key on the same curve.
func (f ecFamily) deriveBits(p *params, k *Key, length int) (work, error) {
	if f.name != ecdhName {
		return nil, fail(errNotSupported, "%s does not derive bits", f.name)
	}
	v := p.get("public")
	if v == nil {
		return nil, fail(errType, "ECDH: the member \"public\" is required")
	}
	pk, err := p.keys.key(v, "ECDH's public")
	if err != nil {
		return nil, err
	}
	switch {
	case pk.Type != publicKey:
		return nil, fail(errInvalidAcc, "ECDH: public is a %s key, not a public one", pk.Type)
	case pk.Algorithm.Name != ecdhName:
		return nil, fail(errInvalidAcc, "ECDH: public is a %s key, not an ECDH one", pk.Algorithm.Name)
	case pk.Algorithm.NamedCurve != k.Algorithm.NamedCurve:
		return nil, fail(errInvalidAcc, "ECDH: public is on %s, the base key on %s", pk.Algorithm.NamedCurve, k.Algorithm.NamedCurve)
	}
	priv, ok := k.handle.(*ecdsa.PrivateKey)
	if !ok {
		return nil, fail(errInvalidAcc, "ECDH: the base key must be a private key")
	}
	pub := pk.handle.(*ecdsa.PublicKey)
	return func() (any, error) {
		a, err := priv.ECDH()
		if err != nil {
			return nil, err
		}
		b, err := pub.ECDH()
		if err != nil {
			return nil, err
		}
		secret, err := a.ECDH(b)
		if err != nil {
			return nil, fail(errOperation, "ECDH: %v", err)
		}
		return truncateBits(secret, length)
	}, nil
}

// truncateBits returns the first length bits of b (all of b when length
// is -1), the unused low bits of the last byte cleared. More bits than b
// has is an OperationError.
func truncateBits(b []byte, length int) ([]byte, error) {
	if length < 0 {
		return b, nil
	}
	if length > len(b)*8 {
		return nil, fail(errOperation, "length %d is more than the %d bits there are", length, len(b)*8)
	}
	out := b[:(length+7)/8]
	if r := length % 8; r != 0 {
		out[len(out)-1] &= byte(0xff << (8 - r))
	}
	return out, nil
}
