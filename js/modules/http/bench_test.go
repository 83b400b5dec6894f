package k6http_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// BenchmarkGet measures one iteration of `http.get(BASE)` of a 1 KiB body
// from a loopback server: argument checks, the exchange on a reused
// connection, the response object and the eleven samples pushed into a
// real metrics engine.
func BenchmarkGet(b *testing.B) {
	body := bytes.Repeat([]byte("x"), 1024)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) }))
	defer srv.Close()
	vu, it := getVU(b, srv.URL)
	b.ReportAllocs()
	for b.Loop() {
		if err := vu.RunIteration(context.Background(), it); err != nil {
			b.Fatal(err)
		}
	}
}

// getVU returns a VU whose default function is `http.get(__ENV.BASE)`,
// with base as BASE, and its iteration; the VU pushes its samples into a
// real metrics engine.
func getVU(tb testing.TB, base string) (*js.VU, js.Iteration) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "get.js")
	src := "import http from 'k6/http';\nexport default function () { http.get(__ENV.BASE); }\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		tb.Fatal(err)
	}
	bundle, err := js.NewBundle(path)
	if err != nil {
		tb.Fatal(err)
	}
	reg := metrics.NewRegistry()
	run := &modules.Run{
		Engine: metrics.NewEngine(reg), Registry: reg, Builtin: metrics.RegisterBuiltin(reg),
		Root: metrics.NewRootGroup(), Tags: metrics.Tags{}, Env: map[string]string{"BASE": base}, Log: &bytes.Buffer{},
	}
	vu, err := bundle.NewVU(context.Background(), 1, run)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(run.End)
	return vu, js.Iteration{Exec: "default", Tags: metrics.Tags{"scenario": "default"}}
}
