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
	path := filepath.Join(b.TempDir(), "bench.js")
	src := "import http from 'k6/http';\nexport default function () { http.get(__ENV.BASE); }\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	bundle, err := js.NewBundle(path)
	if err != nil {
		b.Fatal(err)
	}
	reg := metrics.NewRegistry()
	run := &modules.Run{
		Engine: metrics.NewEngine(reg), Registry: reg, Builtin: metrics.RegisterBuiltin(reg),
		Root: metrics.NewRootGroup(), Tags: metrics.Tags{}, Env: map[string]string{"BASE": srv.URL}, Log: &bytes.Buffer{},
	}
	vu, err := bundle.NewVU(context.Background(), 1, run)
	if err != nil {
		b.Fatal(err)
	}
	it := js.Iteration{Exec: "default", Tags: metrics.Tags{"scenario": "default"}}
	b.ReportAllocs()
	for b.Loop() {
		if err := vu.RunIteration(context.Background(), it); err != nil {
			b.Fatal(err)
		}
	}
}
