package webcrypto

import (
	"encoding/base64"
	"math/big"
	"slices"

	"github.com/grafana/sobek"
)

// jwk is a JSON Web Key (RFC 7517) as importKey reads it and exportKey
// writes it: members by name; "key_ops" is a []string, "ext" a bool, the
// others strings.
type jwk map[string]any

// newJWK returns the members every exported key has: kty, key_ops (the
// key's usages) and ext (true: only extractable keys are exported).
func newJWK(kty string, k *Key) jwk {
	return jwk{"kty": kty, "key_ops": slices.Clone(k.Usages), "ext": true}
}

// setBytes sets member name to the base64url form of b.
func (j jwk) setBytes(name string, b []byte) { j[name] = base64.RawURLEncoding.EncodeToString(b) }

// setInt sets member name to the base64url form of the big-endian bytes of
// n, without leading zeros.
func (j jwk) setInt(name string, n *big.Int) { j.setBytes(name, n.Bytes()) }

// str returns the string member name; a missing one is a DataError when
// required.
func (j jwk) str(name string, required bool) (string, error) {
	v, ok := j[name]
	if !ok || v == nil {
		if required {
			return "", fail(errData, "the JWK has no %q", name)
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fail(errData, "the JWK member %q must be a string", name)
	}
	return s, nil
}

// bytes returns the base64url-decoded member name.
func (j jwk) bytes(name string, required bool) ([]byte, error) {
	s, err := j.str(name, required)
	if err != nil || s == "" {
		return nil, err
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fail(errData, "the JWK member %q is not base64url: %v", name, err)
	}
	return b, nil
}

// bigInt returns the base64url-decoded member name as an unsigned integer.
func (j jwk) bigInt(name string) (*big.Int, error) {
	b, err := j.bytes(name, true)
	if err != nil {
		return nil, err
	}
	return new(big.Int).SetBytes(b), nil
}

// check validates the members every import checks, as the specification
// orders them: kty, use (use is "enc" or "sig"), key_ops (they must allow
// every usage), ext (a non-extractable JWK can't make an extractable key)
// and alg when want is not empty.
func (j jwk) check(kty, use string, want string, extractable bool, usages []string) error {
	if got, _ := j.str("kty", false); got != kty {
		return fail(errData, "the JWK's kty is %q, want %q", got, kty)
	}
	if u, err := j.str("use", false); err != nil || (u != "" && len(usages) > 0 && u != use) {
		return fail(errData, "the JWK's use is %q, want %q", u, use)
	}
	if ops, ok := j["key_ops"]; ok && ops != nil {
		list, _ := ops.([]any)
		for _, u := range usages {
			if !slices.Contains(list, any(u)) {
				return fail(errData, "the JWK's key_ops %v do not allow %s", list, u)
			}
		}
	}
	if ext, ok := j["ext"].(bool); ok && !ext && extractable {
		return fail(errData, "the JWK is not extractable (ext: false), the key can't be")
	}
	if alg, err := j.str("alg", false); err != nil || (want != "" && alg != "" && alg != want) {
		return fail(errData, "the JWK's alg is %q, want %q", alg, want)
	}
	return nil
}

// jwkObject returns a JWK as a JavaScript object.
func jwkObject(rt *sobek.Runtime, j map[string]any) *sobek.Object {
	obj := rt.NewObject()
	for _, name := range sortedMembers(j) {
		v := j[name]
		if ops, ok := v.([]string); ok {
			items := make([]any, len(ops))
			for i, o := range ops {
				items[i] = o
			}
			_ = obj.Set(name, rt.NewArray(items...))
			continue
		}
		_ = obj.Set(name, v)
	}
	return obj
}

// jwkOrder is the order of the members of an exported JWK: the ones every
// key has first, the key material after.
var jwkOrder = []string{"kty", "crv", "alg", "key_ops", "ext", "k", "x", "y", "n", "e", "d", "p", "q", "dp", "dq", "qi"}

// sortedMembers returns the names of j in jwkOrder.
func sortedMembers(j map[string]any) []string {
	out := make([]string, 0, len(j))
	for _, n := range jwkOrder {
		if _, ok := j[n]; ok {
			out = append(out, n)
		}
	}
	return out
}

// exportSecret exports the secret of a symmetric key (AES, HMAC) as raw
// bytes or as an "oct" JWK whose alg is alg; family names the keys in the
// error for any other format.
func exportSecret(format string, k *Key, alg, family string) (any, error) {
	secret := k.handle.([]byte)
	switch format {
	case "raw":
		return append([]byte(nil), secret...), nil
	case "jwk":
		j := newJWK("oct", k)
		j.setBytes("k", secret)
		j["alg"] = alg
		return j, nil
	}
	return nil, fail(errNotSupported, "%s keys are exported as raw or jwk, not %s", family, format)
}
