package webcrypto

import (
	"crypto"
	"math"
	"strings"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// The algorithm names crypto.subtle recognises, spelled as the Web Crypto
// API registers them. Scripts may use any letter case.
const (
	sha1Name    = "SHA-1"
	sha256Name  = "SHA-256"
	sha384Name  = "SHA-384"
	sha512Name  = "SHA-512"
	hmacName    = "HMAC"
	aesGCMName  = "AES-GCM"
	aesCBCName  = "AES-CBC"
	aesCTRName  = "AES-CTR"
	ecdsaName   = "ECDSA"
	ecdhName    = "ECDH"
	rsaPSSName  = "RSA-PSS"
	rsaOAEPName = "RSA-OAEP"
	rsaPKCSName = "RSASSA-PKCS1-v1_5"
	pbkdf2Name  = "PBKDF2"
	hkdfName    = "HKDF"
	ed25519Name = "Ed25519"
	x25519Name  = "X25519"
)

// canonicalNames maps the upper-case spelling of every recognised name to
// its registered spelling.
var canonicalNames = func() map[string]string {
	m := map[string]string{}
	for _, n := range []string{sha1Name, sha256Name, sha384Name, sha512Name, hmacName, aesGCMName, aesCBCName,
		aesCTRName, ecdsaName, ecdhName, rsaPSSName, rsaOAEPName, rsaPKCSName, pbkdf2Name, hkdfName, ed25519Name, x25519Name} {
		m[strings.ToUpper(n)] = n
	}
	return m
}()

// hashes are the digest algorithms, by name.
var hashes = map[string]crypto.Hash{
	sha1Name: crypto.SHA1, sha256Name: crypto.SHA256, sha384Name: crypto.SHA384, sha512Name: crypto.SHA512,
}

// params is a normalized algorithm argument: its registered name and, when
// the script passed an object, the object whose members the operation
// reads. Members are read on the VU's goroutine, before any work starts.
type params struct {
	rt   *sobek.Runtime
	obj  *sobek.Object // nil when the algorithm was given as a string
	name string
	keys *keys // reads CryptoKey members (ECDH's public)
}

// normalize reads an AlgorithmIdentifier: a name or an object with a name.
// Names crypto.subtle does not know are a NotSupportedError.
func normalize(rt *sobek.Runtime, v sobek.Value) (*params, error) {
	p := &params{rt: rt}
	var name sobek.Value = v
	if obj, ok := v.(*sobek.Object); ok {
		p.obj = obj
		name = obj.Get("name")
	}
	if name == nil || sobek.IsUndefined(name) || sobek.IsNull(name) {
		return nil, fail(errType, "the algorithm has no name")
	}
	if !sobek.IsString(name) {
		return nil, fail(errType, "the algorithm name must be a string, not %s", modules.TypeName(name))
	}
	canonical, ok := canonicalNames[strings.ToUpper(name.String())]
	if !ok {
		return nil, fail(errNotSupported, "unknown algorithm %q", name.String())
	}
	p.name = canonical
	return p, nil
}

// get returns the member name of the algorithm object, or nil when it is
// missing or undefined.
func (p *params) get(name string) sobek.Value {
	if p.obj == nil {
		return nil
	}
	v := p.obj.Get(name)
	if v == nil || sobek.IsUndefined(v) {
		return nil
	}
	return v
}

// bytes returns a copy of the BufferSource member name; required members
// that are missing are a TypeError.
func (p *params) bytes(name string, required bool) ([]byte, bool, error) {
	v := p.get(name)
	if v == nil {
		if required {
			return nil, false, fail(errType, "%s: the member %q is required", p.name, name)
		}
		return nil, false, nil
	}
	b, err := bufferSource(p.rt, v, p.name+"."+name)
	return b, err == nil, err
}

// integer returns the unsigned integer member name, or def when it is
// missing and not required.
func (p *params) integer(name string, required bool, def int) (int, error) {
	v := p.get(name)
	if v == nil {
		if required {
			return 0, fail(errType, "%s: the member %q is required", p.name, name)
		}
		return def, nil
	}
	// WebIDL's [EnforceRange] conversion, which every integer member of
	// Web Crypto's dictionaries has: ToNumber ("256" is 256), then the
	// integer part; NaN, infinities and values out of range throw.
	f := v.ToFloat()
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Trunc(f) < 0 || math.Trunc(f) > math.MaxInt32 {
		return 0, fail(errType, "%s: %q must be an unsigned integer, not %s", p.name, name, v.String())
	}
	return int(math.Trunc(f)), nil
}

// hash returns the hash member (a name or an object with a name) as its
// registered name; only the SHA family is recognised.
func (p *params) hash(required bool) (string, error) {
	v := p.get("hash")
	if v == nil {
		if required {
			return "", fail(errType, "%s: the member \"hash\" is required", p.name)
		}
		return "", nil
	}
	h, err := normalize(p.rt, v)
	if err != nil {
		return "", err
	}
	if _, ok := hashes[h.name]; !ok {
		return "", fail(errNotSupported, "%s: %s is not a hash algorithm", p.name, h.name)
	}
	return h.name, nil
}

// bufferSource returns a copy of the bytes of an ArrayBuffer, a typed
// array or a DataView. Anything else, strings included, is a TypeError
// naming what.
func bufferSource(rt *sobek.Runtime, v sobek.Value, what string) ([]byte, error) {
	if v == nil || sobek.IsString(v) {
		return nil, fail(errType, "%s must be an ArrayBuffer, a TypedArray or a DataView, not %s", what, modules.TypeName(v))
	}
	b, ok := modules.Bytes(rt, v)
	if !ok {
		return nil, fail(errType, "%s must be an ArrayBuffer, a TypedArray or a DataView, not %s", what, modules.TypeName(v))
	}
	return append([]byte(nil), b...), nil
}
