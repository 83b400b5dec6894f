// Package webcrypto is the global crypto object of the Web Crypto API:
// crypto.getRandomValues, crypto.randomUUID and crypto.subtle with the
// algorithms k6 documents (digest, HMAC, AES-GCM/CBC/CTR, ECDSA, ECDH,
// RSASSA-PKCS1-v1_5, RSA-PSS, RSA-OAEP, PBKDF2, Ed25519, X25519) and HKDF. It is not an
// importable module: package js installs Global's object as the global
// `crypto` of every VU. crypto.subtle's promises are settled on the VU's
// event loop.
package webcrypto

import (
	"crypto/rand"
	"fmt"
	"reflect"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// maxRandomValues is the largest byteLength getRandomValues fills, as the
// Web Crypto API specifies: 65536 bytes.
const maxRandomValues = 65536

// Global returns the crypto object of vu.
func Global(vu modules.VU) *sobek.Object {
	rt := vu.Runtime()
	obj := rt.NewObject()
	_ = obj.Set("subtle", newSubtle(vu))
	_ = obj.Set("getRandomValues", getRandomValues(rt))
	_ = obj.Set("randomUUID", randomUUID)
	return obj
}

// getRandomValues returns crypto.getRandomValues(typedArray): it fills an
// integer typed array with cryptographically secure random values and
// returns it. Other values throw a TypeMismatchError, arrays of more than
// 65536 bytes a QuotaExceededError, as the specification says.
func getRandomValues(rt *sobek.Runtime) func(sobek.FunctionCall) sobek.Value {
	return func(call sobek.FunctionCall) sobek.Value {
		arg := call.Argument(0)
		if !isIntegerArray(arg) {
			panic(domError(rt, "TypeMismatchError", "crypto.getRandomValues: the argument must be an integer typed array, not %s", modules.TypeName(arg)))
		}
		var b []byte
		if err := rt.ExportTo(arg, &b); err != nil {
			panic(rt.NewTypeError("crypto.getRandomValues: %v", err))
		}
		if len(b) > maxRandomValues {
			panic(domError(rt, "QuotaExceededError", "crypto.getRandomValues: the array has %d bytes, more than %d", len(b), maxRandomValues))
		}
		_, _ = rand.Read(b) // never fails (crypto/rand)
		return arg
	}
}

// isIntegerArray reports whether v is a typed array of integers: an
// Int8Array … BigUint64Array, Uint8ClampedArray, not a Float32Array or a
// Float64Array. Only typed arrays export as Go slices of integers.
func isIntegerArray(v sobek.Value) bool {
	obj, ok := v.(*sobek.Object)
	if !ok {
		return false
	}
	t := obj.ExportType()
	if t == nil || t.Kind() != reflect.Slice {
		return false
	}
	switch t.Elem().Kind() {
	case reflect.Int8, reflect.Uint8, reflect.Int16, reflect.Uint16, reflect.Int32, reflect.Uint32, reflect.Int64, reflect.Uint64:
		return true
	}
	return false
}

// randomUUID is crypto.randomUUID(): a random (version 4) UUID of RFC
// 9562 in its lower-case text form.
func randomUUID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // variant 10
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// domError returns an Error whose name is the DOMException name, such as
// "QuotaExceededError", with the formatted message.
func domError(rt *sobek.Runtime, name, format string, args ...any) *sobek.Object {
	msg := fmt.Sprintf(format, args...)
	ctor, _ := rt.Get("Error").(*sobek.Object)
	e, err := rt.New(ctor, rt.ToValue(msg))
	if err != nil { // the script replaced Error
		return rt.NewTypeError("%s", msg)
	}
	_ = e.Set("name", name)
	return e
}
