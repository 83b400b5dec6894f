package webcrypto

import (
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// work is an operation whose arguments were read: it runs off the VU's
// goroutine and returns a []byte (an ArrayBuffer), a bool, a *Key, a
// keyPair or a JWK (map[string]any).
type work func() (any, error)

// keyData is the key material importKey reads: raw bytes for "raw", "spki"
// and "pkcs8", the members of a JsonWebKey for "jwk".
type keyData struct {
	raw []byte
	jwk jwk
}

// family is the key management of an algorithm family. Methods read their
// parameters from p at once and return the work that does the rest; a
// family that has no such operation returns a NotSupportedError.
type family interface {
	generateKey(p *params, extractable bool, usages []string) (work, error)
	importKey(format string, p *params, extractable bool, usages []string) (importer, error)
	exportKey(format string, k *Key) (any, error)
}

// importer makes a key of the material it is given; importKey returns one
// once it read the algorithm's parameters.
type importer func(keyData) (*Key, error)

// cipher is a family that encrypts and decrypts.
type cipher interface {
	encrypt(p *params, k *Key, data []byte) (work, error)
	decrypt(p *params, k *Key, data []byte) (work, error)
}

// signer is a family that signs and verifies.
type signer interface {
	sign(p *params, k *Key, data []byte) (work, error)
	verify(p *params, k *Key, signature, data []byte) (work, error)
}

// deriver is a family that derives bits from a base key. length is the
// number of bits, or -1 when the script passed null.
type deriver interface {
	deriveBits(p *params, k *Key, length int) (work, error)
}

// keyLengther is a family whose keys deriveKey can make: keyLength reads
// the derivedKeyType p and returns the length of the key in bits.
type keyLengther interface {
	keyLength(p *params) (int, error)
}

// families are the algorithm families, by registered name.
var families = map[string]family{
	hmacName:    hmacFamily{},
	aesGCMName:  aesFamily{name: aesGCMName},
	aesCBCName:  aesFamily{name: aesCBCName},
	aesCTRName:  aesFamily{name: aesCTRName},
	ecdsaName:   ecFamily{name: ecdsaName},
	ecdhName:    ecFamily{name: ecdhName},
	rsaPSSName:  rsaFamily{name: rsaPSSName},
	rsaOAEPName: rsaFamily{name: rsaOAEPName},
	rsaPKCSName: rsaFamily{name: rsaPKCSName},
	pbkdf2Name:  kdfFamily{name: pbkdf2Name},
	hkdfName:    kdfFamily{name: hkdfName},
	ed25519Name: okpFamily{name: ed25519Name},
	x25519Name:  okpFamily{name: x25519Name},
}

// keyFormats are the formats importKey and exportKey know.
var keyFormats = map[string]bool{"raw": true, "spki": true, "pkcs8": true, "jwk": true}

// subtle is crypto.subtle in one VU.
type subtle struct {
	vu   modules.VU
	rt   *sobek.Runtime
	keys *keys
}

// newSubtle returns the crypto.subtle object of vu.
func newSubtle(vu modules.VU) *sobek.Object {
	rt := vu.Runtime()
	s := &subtle{vu: vu, rt: rt, keys: newKeys(rt)}
	obj := rt.NewObject()
	for name, parse := range map[string]func(sobek.FunctionCall) (work, error){
		"digest":      s.digest,
		"generateKey": s.generateKey,
		"importKey":   s.importKey,
		"exportKey":   s.exportKey,
		"encrypt":     s.encrypt,
		"decrypt":     s.decrypt,
		"sign":        s.sign,
		"verify":      s.verify,
		"deriveBits":  s.deriveBits,
		"deriveKey":   s.deriveKey,
	} {
		_ = obj.Set(name, s.method(name, parse))
	}
	return obj
}

// method returns a crypto.subtle method: parse reads the arguments on the
// VU's goroutine, the work runs on a goroutine of its own and the promise
// is settled on the VU's event loop.
func (s *subtle) method(name string, parse func(sobek.FunctionCall) (work, error)) func(sobek.FunctionCall) sobek.Value {
	return func(call sobek.FunctionCall) sobek.Value {
		promise, resolve, reject := s.rt.NewPromise()
		run, err := parse(call)
		if err != nil {
			_ = reject(errorValue(s.rt, name, err))
			return s.rt.ToValue(promise)
		}
		done := s.vu.RegisterCallback()
		go func() {
			res, err := run()
			done(func() error {
				if err != nil {
					return reject(errorValue(s.rt, name, err))
				}
				return resolve(s.value(res))
			})
		}()
		return s.rt.ToValue(promise)
	}
}

// value turns a work's result into JavaScript.
func (s *subtle) value(res any) sobek.Value {
	switch r := res.(type) {
	case []byte:
		return s.rt.ToValue(s.rt.NewArrayBuffer(r))
	case *Key:
		return s.keys.object(r)
	case keyPair:
		obj := s.rt.NewObject()
		_ = obj.Set("publicKey", s.keys.object(r.public))
		_ = obj.Set("privateKey", s.keys.object(r.private))
		return obj
	case jwk:
		return jwkObject(s.rt, r)
	}
	return s.rt.ToValue(res)
}

// algorithmFor normalizes the algorithm argument and checks that key is a
// key of that algorithm allowing usage: an InvalidAccessError otherwise.
func (s *subtle) algorithmFor(alg, key sobek.Value, usage string) (*params, *Key, error) {
	p, err := normalize(s.rt, alg)
	if err != nil {
		return nil, nil, err
	}
	p.keys = s.keys
	k, err := s.keys.key(key, "the key")
	if err != nil {
		return nil, nil, err
	}
	if k.Algorithm.Name != p.name {
		return nil, nil, fail(errInvalidAcc, "the key is a %s key, not %s", k.Algorithm.Name, p.name)
	}
	if !k.hasUsage(usage) {
		return nil, nil, fail(errInvalidAcc, "the key's usages %v do not allow %s", k.Usages, usage)
	}
	return p, k, nil
}

// familyAs returns the family of p as a T; a family that is not a T does
// not support op: a NotSupportedError.
func familyAs[T any](p *params, op string) (T, error) {
	f, ok := families[p.name].(T)
	if !ok {
		var zero T
		return zero, fail(errNotSupported, "%s does not support %s", p.name, op)
	}
	return f, nil
}

// digest is crypto.subtle.digest(algorithm, data).
func (s *subtle) digest(call sobek.FunctionCall) (work, error) {
	p, err := normalize(s.rt, call.Argument(0))
	if err != nil {
		return nil, err
	}
	data, err := bufferSource(s.rt, call.Argument(1), "data")
	if err != nil {
		return nil, err
	}
	return digestWork(p.name, data)
}

// generateKey is crypto.subtle.generateKey(algorithm, extractable,
// keyUsages).
func (s *subtle) generateKey(call sobek.FunctionCall) (work, error) {
	p, err := normalize(s.rt, call.Argument(0))
	if err != nil {
		return nil, err
	}
	usages, err := readUsages(s.rt, call.Argument(2))
	if err != nil {
		return nil, err
	}
	f, err := familyAs[family](p, "generateKey")
	if err != nil {
		return nil, err
	}
	run, err := f.generateKey(p, call.Argument(1).ToBoolean(), usages)
	if err != nil {
		return nil, err
	}
	return requireUsages(run), nil
}

// requireUsages fails the work when the secret or private key it made has
// no usages: a SyntaxError, as the specification says.
func requireUsages(run work) work {
	return func() (any, error) {
		res, err := run()
		if err != nil {
			return nil, err
		}
		k, _ := res.(*Key)
		if pair, ok := res.(keyPair); ok {
			k = pair.private
		}
		if k != nil && k.Type != publicKey && len(k.Usages) == 0 {
			return nil, fail(errSyntax, "a %s key needs at least one usage", k.Type)
		}
		return res, nil
	}
}

// readFormat reads a KeyFormat argument.
func readFormat(v sobek.Value) (string, error) {
	f := v.String()
	if !keyFormats[f] {
		return "", fail(errType, "unknown key format %q (want raw, spki, pkcs8 or jwk)", f)
	}
	return f, nil
}

// importKey is crypto.subtle.importKey(format, keyData, algorithm,
// extractable, keyUsages).
func (s *subtle) importKey(call sobek.FunctionCall) (work, error) {
	format, err := readFormat(call.Argument(0))
	if err != nil {
		return nil, err
	}
	var data keyData
	if format == "jwk" {
		obj, ok := call.Argument(1).(*sobek.Object)
		if !ok {
			return nil, fail(errType, "a jwk keyData must be an object, not %s", modules.TypeName(call.Argument(1)))
		}
		m, _ := obj.Export().(map[string]any)
		data.jwk = m
	} else if data.raw, err = bufferSource(s.rt, call.Argument(1), "keyData"); err != nil {
		return nil, err
	}
	p, err := normalize(s.rt, call.Argument(2))
	if err != nil {
		return nil, err
	}
	usages, err := readUsages(s.rt, call.Argument(4))
	if err != nil {
		return nil, err
	}
	f, err := familyAs[family](p, "importKey")
	if err != nil {
		return nil, err
	}
	imp, err := f.importKey(format, p, call.Argument(3).ToBoolean(), usages)
	if err != nil {
		return nil, err
	}
	return requireUsages(func() (any, error) { return imp(data) }), nil
}

// exportKey is crypto.subtle.exportKey(format, key).
func (s *subtle) exportKey(call sobek.FunctionCall) (work, error) {
	format, err := readFormat(call.Argument(0))
	if err != nil {
		return nil, err
	}
	k, err := s.keys.key(call.Argument(1), "the key")
	if err != nil {
		return nil, err
	}
	if !k.Extractable {
		return nil, fail(errInvalidAcc, "the key is not extractable")
	}
	f := families[k.Algorithm.Name]
	return func() (any, error) { return f.exportKey(format, k) }, nil
}

// encrypt is crypto.subtle.encrypt(algorithm, key, data).
func (s *subtle) encrypt(call sobek.FunctionCall) (work, error) {
	return s.cipherOp(call, "encrypt")
}

// decrypt is crypto.subtle.decrypt(algorithm, key, data).
func (s *subtle) decrypt(call sobek.FunctionCall) (work, error) {
	return s.cipherOp(call, "decrypt")
}

func (s *subtle) cipherOp(call sobek.FunctionCall, op string) (work, error) {
	p, k, err := s.algorithmFor(call.Argument(0), call.Argument(1), op)
	if err != nil {
		return nil, err
	}
	c, err := familyAs[cipher](p, op)
	if err != nil {
		return nil, err
	}
	data, err := bufferSource(s.rt, call.Argument(2), "data")
	if err != nil {
		return nil, err
	}
	if op == "encrypt" {
		return c.encrypt(p, k, data)
	}
	return c.decrypt(p, k, data)
}

// sign is crypto.subtle.sign(algorithm, key, data).
func (s *subtle) sign(call sobek.FunctionCall) (work, error) {
	p, k, err := s.algorithmFor(call.Argument(0), call.Argument(1), "sign")
	if err != nil {
		return nil, err
	}
	sg, err := familyAs[signer](p, "sign")
	if err != nil {
		return nil, err
	}
	data, err := bufferSource(s.rt, call.Argument(2), "data")
	if err != nil {
		return nil, err
	}
	return sg.sign(p, k, data)
}

// verify is crypto.subtle.verify(algorithm, key, signature, data).
func (s *subtle) verify(call sobek.FunctionCall) (work, error) {
	p, k, err := s.algorithmFor(call.Argument(0), call.Argument(1), "verify")
	if err != nil {
		return nil, err
	}
	sg, err := familyAs[signer](p, "verify")
	if err != nil {
		return nil, err
	}
	sig, err := bufferSource(s.rt, call.Argument(2), "signature")
	if err != nil {
		return nil, err
	}
	data, err := bufferSource(s.rt, call.Argument(3), "data")
	if err != nil {
		return nil, err
	}
	return sg.verify(p, k, sig, data)
}

// deriveBits is crypto.subtle.deriveBits(algorithm, baseKey, length).
func (s *subtle) deriveBits(call sobek.FunctionCall) (work, error) {
	p, k, err := s.algorithmFor(call.Argument(0), call.Argument(1), "deriveBits")
	if err != nil {
		return nil, err
	}
	d, err := familyAs[deriver](p, "deriveBits")
	if err != nil {
		return nil, err
	}
	length := -1
	if v := call.Argument(2); !sobek.IsNull(v) && !sobek.IsUndefined(v) {
		f := v.ToFloat()
		if !sobek.IsNumber(v) || f < 0 || f != float64(int(f)) {
			return nil, fail(errType, "length must be an unsigned integer or null, not %s", v.String())
		}
		length = int(f)
	}
	return d.deriveBits(p, k, length)
}

// deriveKey is crypto.subtle.deriveKey(algorithm, baseKey, derivedKeyType,
// extractable, keyUsages): deriveBits of the derived key's length, then
// importKey of those bits as a raw key.
func (s *subtle) deriveKey(call sobek.FunctionCall) (work, error) {
	p, k, err := s.algorithmFor(call.Argument(0), call.Argument(1), "deriveKey")
	if err != nil {
		return nil, err
	}
	d, err := familyAs[deriver](p, "deriveKey")
	if err != nil {
		return nil, err
	}
	target, err := normalize(s.rt, call.Argument(2))
	if err != nil {
		return nil, err
	}
	tf, err := familyAs[keyLengther](target, "deriveKey as the derived key type")
	if err != nil {
		return nil, err
	}
	length, err := tf.keyLength(target)
	if err != nil {
		return nil, err
	}
	usages, err := readUsages(s.rt, call.Argument(4))
	if err != nil {
		return nil, err
	}
	bits, err := d.deriveBits(p, k, length)
	if err != nil {
		return nil, err
	}
	imp, err := families[target.name].importKey("raw", target, call.Argument(3).ToBoolean(), usages)
	if err != nil {
		return nil, err
	}
	return requireUsages(func() (any, error) {
		b, err := bits()
		if err != nil {
			return nil, err
		}
		return imp(keyData{raw: b.([]byte)})
	}), nil
}
