package k6crypto_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
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
	p := filepath.Join(t.TempDir(), "s.js")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := js.NewBundle(p)
	if err != nil {
		t.Fatal(err)
	}
	reg := metrics.NewRegistry()
	run := &modules.Run{Engine: metrics.NewEngine(reg), Registry: reg, Builtin: metrics.RegisterBuiltin(reg),
		Root: metrics.NewRootGroup(), Tags: metrics.Tags{}, Env: map[string]string{}, Log: &bytes.Buffer{}}
	vu, err := b.NewVU(context.Background(), 1, run)
	if err != nil {
		t.Fatal(err)
	}
	return vu.Runtime()
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
