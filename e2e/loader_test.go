package e2e

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestLoaderForms runs a TypeScript script, a CommonJS bundle and a script
// of bundler export forms through the binary: every check must pass, as
// many times as the scripts' iterations.
func TestLoaderForms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		script string
		checks float64
	}{
		{"loader/typescript.ts", 1},
		{"loader/bundle.js", 4},
		{"loader/exports.js", 3},
	} {
		t.Run(tc.script, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out := filepath.Join(dir, "export.json")
			r := invocation{args: []string{"run", "-q", "--summary-export", out, script(tc.script)}, dir: dir}.run(t)
			r.wantCode(t, 0)
			exp := export(t, out)
			if p, f := number(t, exp, "metrics", "checks", "passes"), number(t, exp, "metrics", "checks", "fails"); p != tc.checks || f != 0 {
				t.Errorf("checks passes/fails = %v/%v, want %v/0\n%s", p, f, tc.checks, r.stderr)
			}
		})
	}
}

// TestLoaderMissingSourceMap warns once, naming the missing map, and runs.
func TestLoaderMissingSourceMap(t *testing.T) {
	t.Parallel()
	r := invocation{args: []string{"run", "-q", script("loader/exports.js")}, dir: t.TempDir()}.run(t)
	r.wantCode(t, 0)
	if n := strings.Count(r.stderr, "exports.js.map"); n != 1 || !strings.Contains(r.stderr, "WARN source map") {
		t.Errorf("stderr names exports.js.map %d times in a WARN line, want once:\n%s", n, r.stderr)
	}
}

// TestLoaderRemoteModule requires a UMD library over https from a loopback
// server the binary trusts through SSL_CERT_FILE: every file is fetched
// once per run and the checks that use it pass.
func TestLoaderRemoteModule(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"/lib/1.0.0/index.js": `(function (root, factory) {
  if (typeof module === 'object' && module.exports) { module.exports = factory(require('./util.js')); }
  else { root.lib = factory(root.util); }
})(this, function (util) { return { label: function () { return util.prefix + 'function'; } }; });`,
		"/lib/1.0.0/util.js": `exports.prefix = 'remote ';`,
	}
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		if src, ok := files[r.URL.Path]; ok {
			_, _ = w.Write([]byte(src))
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	dir := t.TempDir()
	certFile := filepath.Join(dir, "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(certFile, pemBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "export.json")
	r := invocation{
		args: []string{"run", "-q", "--summary-export", out, "-e", "LIB=" + srv.URL, script("loader/remote.js")},
		env:  []string{"SSL_CERT_FILE=" + certFile, "XDG_CACHE_HOME=" + filepath.Join(dir, "cache")},
		dir:  dir,
	}.run(t)
	r.wantCode(t, 0)
	if p := number(t, export(t, out), "metrics", "checks", "passes"); p != 4 {
		t.Errorf("checks passes = %v, want 4\n%s", p, r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	for p := range files {
		if hits[p] != 1 {
			t.Errorf("%s fetched %d times, want once per run", p, hits[p])
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "cache", "usefullatency", "modules", "*.js")); len(m) != 2 {
		t.Errorf("cache holds %d modules, want 2", len(m))
	}
}
