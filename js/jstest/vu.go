// Package jstest starts real VUs for the tests of JavaScript modules: a
// script written to a temporary file, bundled and initialised through the
// js package as the runner does, in a run of its own.
package jstest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// NewRun returns a run with a fresh registry, engine and root group, no
// tags and an empty environment; console output goes to log.
func NewRun(log *bytes.Buffer) *modules.Run {
	reg := metrics.NewRegistry()
	return &modules.Run{
		Engine: metrics.NewEngine(reg), Registry: reg, Builtin: metrics.RegisterBuiltin(reg),
		Root: metrics.NewRootGroup(), Tags: metrics.Tags{}, Env: map[string]string{}, Log: log,
	}
}

// NewVU writes src to a file in a temporary directory and starts a VU on
// it (see NewVUFile).
func NewVU(t testing.TB, src string) *js.VU {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.js")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return NewVUFile(t, path)
}

// NewVUFile bundles the script at path and initialises VU 1 on it in a new
// run. It fails the test on any error.
func NewVUFile(t testing.TB, path string) *js.VU {
	t.Helper()
	b, err := js.NewBundle(path)
	if err != nil {
		t.Fatal(err)
	}
	vu, err := b.NewVU(context.Background(), 1, NewRun(&bytes.Buffer{}))
	if err != nil {
		t.Fatal(err)
	}
	return vu
}
