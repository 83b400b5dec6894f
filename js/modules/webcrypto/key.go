package webcrypto

import (
	"slices"

	"github.com/grafana/sobek"
)

// The key types of the Web Crypto API.
const (
	secretKey  = "secret"
	publicKey  = "public"
	privateKey = "private"
)

// usageOrder is the order of the recognised key usages; a key's usages are
// kept in this order, without duplicates, as the specification normalizes
// them.
var usageOrder = []string{"encrypt", "decrypt", "sign", "verify", "deriveKey", "deriveBits", "wrapKey", "unwrapKey"}

// Key is a CryptoKey: its type, whether exportKey may read it, its
// algorithm, its usages and the Go key material in handle: a []byte for
// secret keys, *ecdsa, *rsa keys otherwise.
type Key struct {
	Type        string
	Extractable bool
	Algorithm   KeyAlgorithm
	Usages      []string
	handle      any
}

// KeyAlgorithm is the algorithm member of a CryptoKey: the fields a family
// does not use are zero and left out of the JavaScript object.
type KeyAlgorithm struct {
	Name           string
	Length         int    // bits of an AES or HMAC key
	Hash           string // HMAC and RSA
	NamedCurve     string // ECDSA and ECDH
	ModulusLength  int    // RSA
	PublicExponent []byte // RSA, big-endian
}

// keyPair is the CryptoKeyPair generateKey returns for asymmetric
// algorithms.
type keyPair struct{ public, private *Key }

// hasUsage reports whether k may be used for usage.
func (k *Key) hasUsage(usage string) bool { return slices.Contains(k.Usages, usage) }

// readUsages reads the keyUsages argument: an array of recognised usages,
// returned in usageOrder without duplicates.
func readUsages(rt *sobek.Runtime, v sobek.Value) ([]string, error) {
	var raw []string
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) || rt.ExportTo(v, &raw) != nil {
		return nil, fail(errType, "keyUsages must be an array of strings")
	}
	for _, u := range raw {
		if !slices.Contains(usageOrder, u) {
			return nil, fail(errType, "unknown key usage %q", u)
		}
	}
	return normalizeUsages(raw), nil
}

// normalizeUsages returns the usages in usageOrder without duplicates.
func normalizeUsages(usages []string) []string {
	out := []string{}
	for _, u := range usageOrder {
		if slices.Contains(usages, u) {
			out = append(out, u)
		}
	}
	return out
}

// checkUsages returns a SyntaxError when a usage is not one of allowed.
func checkUsages(alg string, usages []string, allowed ...string) error {
	for _, u := range usages {
		if !slices.Contains(allowed, u) {
			return fail(errSyntax, "%s keys can't be used to %s (allowed: %v)", alg, u, allowed)
		}
	}
	return nil
}

// intersect returns the usages that are in allowed, in usageOrder.
func intersect(usages []string, allowed ...string) []string {
	out := []string{}
	for _, u := range usages {
		if slices.Contains(allowed, u) {
			out = append(out, u)
		}
	}
	return out
}

// keys makes the JavaScript CryptoKey objects of a VU and finds the Key
// behind one: the Key hides under a symbol only Go holds.
type keys struct {
	rt     *sobek.Runtime
	handle *sobek.Symbol
	proto  *sobek.Object
}

func newKeys(rt *sobek.Runtime) *keys {
	proto := rt.NewObject()
	_ = proto.DefineDataPropertySymbol(sobek.SymToStringTag, rt.ToValue("CryptoKey"), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
	return &keys{rt: rt, handle: sobek.NewSymbol("CryptoKey"), proto: proto}
}

// object returns the CryptoKey object of k: read-only type, extractable,
// algorithm and usages.
func (ks *keys) object(k *Key) *sobek.Object {
	rt := ks.rt
	obj := rt.NewObject()
	_ = obj.SetPrototype(ks.proto)
	usages := make([]any, len(k.Usages))
	for i, u := range k.Usages {
		usages[i] = u
	}
	for _, p := range []struct {
		name  string
		value sobek.Value
	}{
		{"type", rt.ToValue(k.Type)},
		{"extractable", rt.ToValue(k.Extractable)},
		{"algorithm", k.Algorithm.object(rt)},
		{"usages", rt.NewArray(usages...)},
	} {
		_ = obj.DefineDataProperty(p.name, p.value, sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_TRUE)
	}
	_ = obj.DefineDataPropertySymbol(ks.handle, rt.ToValue(k), sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_FALSE)
	return obj
}

// key returns the Key behind a CryptoKey object; anything else is a
// TypeError naming what.
func (ks *keys) key(v sobek.Value, what string) (*Key, error) {
	if obj, ok := v.(*sobek.Object); ok {
		if h := obj.GetSymbol(ks.handle); h != nil {
			if k, ok := h.Export().(*Key); ok {
				return k, nil
			}
		}
	}
	return nil, fail(errType, "%s must be a CryptoKey", what)
}

// object returns the algorithm as a JavaScript object with the members its
// family has: name, and length, hash {name}, namedCurve, modulusLength or
// publicExponent (a Uint8Array).
func (a KeyAlgorithm) object(rt *sobek.Runtime) *sobek.Object {
	obj := rt.NewObject()
	_ = obj.Set("name", a.Name)
	if a.Length != 0 {
		_ = obj.Set("length", a.Length)
	}
	if a.NamedCurve != "" {
		_ = obj.Set("namedCurve", a.NamedCurve)
	}
	if a.ModulusLength != 0 {
		_ = obj.Set("modulusLength", a.ModulusLength)
		exp, _ := rt.New(rt.Get("Uint8Array"), rt.ToValue(rt.NewArrayBuffer(append([]byte(nil), a.PublicExponent...))))
		_ = obj.Set("publicExponent", exp)
	}
	if a.Hash != "" {
		h := rt.NewObject()
		_ = h.Set("name", a.Hash)
		_ = obj.Set("hash", h)
	}
	return obj
}
