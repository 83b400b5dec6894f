package js_test

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/usefullatency/usefullatency/js"
)

// remoteFiles is a jslib-shaped remote library: a UMD bundle that requires
// k6 and a module next to it on the server.
var remoteFiles = map[string]string{
	"/lib/1.0.0/index.js": `
(function (root, factory) {
  if (typeof module === 'object' && module.exports) { module.exports = factory(require('k6'), require('./util.js')); }
  else { root.lib = factory(root.k6, root.util); }
})(this, function (k6, util) {
  return { label: function () { return util.prefix + (typeof k6.check); } };
});`,
	"/lib/1.0.0/util.js": `export const prefix = 'remote ';`,
}

// moduleServer serves files over TLS on loopback and counts the requests
// per path.
func moduleServer(t *testing.T) (*httptest.Server, func(path string) int) {
	t.Helper()
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		src, ok := remoteFiles[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(src))
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the untrusted-client handshake
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, func(path string) int {
		mu.Lock()
		defer mu.Unlock()
		return hits[path]
	}
}

// remoteMain writes a main script importing the library from srv.
func remoteMain(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	dir := writeFiles(t, map[string]string{"main.js": `
import lib from '` + srv.URL + `/lib/1.0.0/index.js';
export default function () { return lib.label(); }`})
	return filepath.Join(dir, "main.js")
}

func callDefault(t *testing.T, b *js.Bundle, id int64) string {
	t.Helper()
	run, _ := newRun()
	vu, err := b.NewVU(context.Background(), id, run)
	if err != nil {
		t.Fatal(err)
	}
	res, err := vu.Call(context.Background(), "default")
	if err != nil {
		t.Fatal(err)
	}
	return res.String()
}

// TestRemoteModule imports a UMD bundle over https, which requires a
// module relative to its URL; each file is fetched once however many VUs
// run it, and lands in the cache directory.
func TestRemoteModule(t *testing.T) {
	srv, hits := moduleServer(t)
	cache := t.TempDir()
	b, err := js.NewBundleConfig(remoteMain(t, srv), js.Config{HTTPClient: srv.Client(), CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	for id := int64(1); id <= 3; id++ {
		if got := callDefault(t, b, id); got != "remote function" {
			t.Errorf("VU %d: default() = %q, want %q", id, got, "remote function")
		}
	}
	for _, p := range []string{"/lib/1.0.0/index.js", "/lib/1.0.0/util.js"} {
		if n := hits(p); n != 1 {
			t.Errorf("%s fetched %d times, want once", p, n)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(cache, "*.js")); len(m) != 2 {
		t.Errorf("cache holds %d modules, want 2", len(m))
	}
}

// TestRemoteModuleCached loads from the cache, with a warning naming the
// module, when the server is gone.
func TestRemoteModuleCached(t *testing.T) {
	srv, _ := moduleServer(t)
	cache := t.TempDir()
	main := remoteMain(t, srv)
	first, err := js.NewBundleConfig(main, js.Config{HTTPClient: srv.Client(), CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	callDefault(t, first, 1) // requires util.js
	client := srv.Client()
	srv.Close()
	b, err := js.NewBundleConfig(main, js.Config{HTTPClient: client, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if got := callDefault(t, b, 1); got != "remote function" {
		t.Errorf("default() = %q", got)
	}
	w := b.Warnings()
	if len(w) != 2 || !strings.Contains(w[0], "/lib/1.0.0/index.js") || !strings.Contains(w[0], "cached") {
		t.Errorf("warnings %q, want one per module naming it and the cache", w)
	}
}

// TestRemoteModuleErrors names the URL and the reason when a module cannot
// be fetched and is not cached.
func TestRemoteModuleErrors(t *testing.T) {
	srv, _ := moduleServer(t)
	for _, tc := range []struct{ name, url, want string }{
		{"not found", srv.URL + "/nope.js", "404"},
		{"untrusted certificate", srv.URL + "/lib/1.0.0/util.js", "certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.js": `import x from '` + tc.url + `'; export default x;`})
			client := srv.Client()
			if tc.name == "untrusted certificate" {
				client = &http.Client{}
			}
			_, err := js.NewBundleConfig(filepath.Join(dir, "main.js"), js.Config{HTTPClient: client, CacheDir: t.TempDir()})
			if err == nil || !strings.Contains(err.Error(), tc.url) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one naming %s and %q", err, tc.url, tc.want)
			}
		})
	}
}

// TestRemoteModuleOffline serves cached modules without a request and
// fails at once, naming the module and --offline, on one not cached.
func TestRemoteModuleOffline(t *testing.T) {
	srv, hits := moduleServer(t)
	cache := t.TempDir()
	main := remoteMain(t, srv)
	first, err := js.NewBundleConfig(main, js.Config{HTTPClient: srv.Client(), CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	callDefault(t, first, 1) // requires util.js, which the cache then holds too
	before := hits("/lib/1.0.0/index.js")
	b, err := js.NewBundleConfig(main, js.Config{HTTPClient: srv.Client(), CacheDir: cache, Offline: true})
	if err != nil {
		t.Fatalf("offline with the modules cached: %v", err)
	}
	if got := callDefault(t, b, 1); got != "remote function" || hits("/lib/1.0.0/index.js") != before {
		t.Errorf("offline: default() = %q, %d requests after the cache was filled; want none", got, hits("/lib/1.0.0/index.js")-before)
	}
	_, err = js.NewBundleConfig(main, js.Config{HTTPClient: srv.Client(), CacheDir: t.TempDir(), Offline: true})
	if err == nil || !strings.Contains(err.Error(), "--offline") || !strings.Contains(err.Error(), "/lib/1.0.0/index.js") {
		t.Errorf("offline with an empty cache: error %v, want one naming the module and --offline", err)
	}
	if hits("/lib/1.0.0/index.js") != before {
		t.Error("offline fetched a module")
	}
}
