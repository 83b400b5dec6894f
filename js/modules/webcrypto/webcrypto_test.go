package webcrypto_test

import (
	"strings"
	"testing"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/jstest"
)

// newVU initialises a real VU on an empty script and returns its runtime,
// where the global crypto is installed.
func newVU(t *testing.T) *sobek.Runtime {
	t.Helper()
	return jstest.NewVU(t, "export default function () {}\n").Runtime()
}

// TestGetRandomValues checks that getRandomValues fills every integer
// typed array in place (only the viewed bytes of a subarray) and returns
// it. An all-zero result of 64 random bytes has probability 2^-512.
func TestGetRandomValues(t *testing.T) {
	rt := newVU(t)
	cases := []string{
		`(() => { const a = new Uint8Array(64); return crypto.getRandomValues(a) === a && a.some((x) => x !== 0); })()`,
		`['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
		  'BigInt64Array', 'BigUint64Array'].every((name) => {
			const a = crypto.getRandomValues(new globalThis[name](16));
			return a.length === 16 && new Uint8Array(a.buffer).some((x) => x !== 0); })`,
		`(() => { const a = new Uint8Array(96); crypto.getRandomValues(a.subarray(32, 64));
			return a.slice(0, 32).every((x) => x === 0) && a.slice(64).every((x) => x === 0) && a.slice(32, 64).some((x) => x !== 0); })()`,
		`crypto.getRandomValues(new Uint32Array(16384)).length === 16384`, // exactly 65536 bytes
		`crypto.getRandomValues(new Uint8Array(0)).length === 0`,
	}
	for _, c := range cases {
		got, err := rt.RunString(c)
		if err != nil || !got.ToBoolean() {
			t.Errorf("%s = %v (%v), want true", c, got, err)
		}
	}
}

// TestGetRandomValuesErrors checks the errors the Web Crypto API
// specifies: TypeMismatchError for anything but an integer typed array,
// QuotaExceededError beyond 65536 bytes.
func TestGetRandomValuesErrors(t *testing.T) {
	rt := newVU(t)
	cases := []struct{ expr, name, msg string }{
		{`crypto.getRandomValues(new Float64Array(4))`, "TypeMismatchError", "must be an integer typed array, not Float64Array"},
		{`crypto.getRandomValues(new Float32Array(4))`, "TypeMismatchError", "not Float32Array"},
		{`crypto.getRandomValues([1, 2, 3])`, "TypeMismatchError", "not Array"},
		{`crypto.getRandomValues(new DataView(new ArrayBuffer(4)))`, "TypeMismatchError", "not DataView"},
		{`crypto.getRandomValues(new ArrayBuffer(4))`, "TypeMismatchError", "not ArrayBuffer"},
		{`crypto.getRandomValues()`, "TypeMismatchError", "not undefined"},
		{`crypto.getRandomValues(new Uint8Array(65537))`, "QuotaExceededError", "65537 bytes, more than 65536"},
	}
	for _, c := range cases {
		got, err := rt.RunString(`(() => { try { ` + c.expr + `; return 'no error'; } catch (e) { return e.name + ': ' + e.message; } })()`)
		want := c.name + ": crypto.getRandomValues: "
		if err != nil || !strings.HasPrefix(got.String(), want) || !strings.Contains(got.String(), c.msg) {
			t.Errorf("%s threw %v (%v), want %q…%q", c.expr, got, err, want, c.msg)
		}
	}
}

// TestRandomUUID checks the form of randomUUID's version 4 UUIDs and that
// 100 of them are distinct.
func TestRandomUUID(t *testing.T) {
	rt := newVU(t)
	got, err := rt.RunString(`(() => {
		const all = Array.from({ length: 100 }, () => crypto.randomUUID());
		const form = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
		return all.every((u) => form.test(u)) && new Set(all).size === 100;
	})()`)
	if err != nil || !got.ToBoolean() {
		t.Errorf("randomUUID: %v (%v)", got, err)
	}
}
