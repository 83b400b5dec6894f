package k6crypto_test

import (
	"testing"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/jstest"
)

// newVU initialises a real VU on a script that imports k6/crypto as
// `crypto` (default export) and as `named` (its named exports), with
// helpers to write binary test inputs, and returns the VU's runtime.
func newVU(t *testing.T) *sobek.Runtime {
	t.Helper()
	src := `import crypto from 'k6/crypto';
import * as named from 'k6/crypto';
globalThis.k6crypto = crypto;
globalThis.named = named;
// rep(byte, n) is an ArrayBuffer of n copies of byte.
globalThis.rep = (b, n) => new Uint8Array(n).fill(b).buffer;
// ascii(s) is an ArrayBuffer of the char codes of s.
globalThis.ascii = (s) => new Uint8Array(Array.from(s, (ch) => ch.charCodeAt(0))).buffer;
globalThis.list = (buf) => Array.from(new Uint8Array(buf)).join(',');
export default function () {}
`
	return jstest.NewVU(t, src).Runtime()
}

// eval runs each expression in rt and reports those whose value, as a
// string, is not the wanted one.
func eval(t *testing.T, rt *sobek.Runtime, cases []struct{ expr, want string }) {
	t.Helper()
	for _, c := range cases {
		got, err := rt.RunString(c.expr)
		if err != nil || got.String() != c.want {
			t.Errorf("%s = %v (%v), want %q", c.expr, got, err, c.want)
		}
	}
}
