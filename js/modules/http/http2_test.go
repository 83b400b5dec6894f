package k6http_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/usefullatency/usefullatency/js/modules"
)

// protocolServer starts a TLS server speaking HTTP/2: /reset resets the
// stream (INTERNAL_ERROR), /early sends 103 Early Hints before its 200.
func protocolServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/reset", func(w http.ResponseWriter, r *http.Request) { panic(http.ErrAbortHandler) })
	mux.HandleFunc("/early", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", "</style.css>; rel=preload")
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Del("Link")
		fmt.Fprint(w, "final")
	})
	srv := httptest.NewUnstartedServer(mux)
	srv.EnableHTTP2 = true
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func TestHTTP2ErrorsAndEarlyHints(t *testing.T) {
	h2 := protocolServer(t)
	plain := httptest.NewServer(h2.Config.Handler)
	t.Cleanup(plain.Close)
	r := mustRun(t, `export default function () {
  let r = http.get(__ENV.H2 + '/reset');
  eq([r.status, r.error_code], [0, 1633], 'stream reset with INTERNAL_ERROR');
  if (!r.error.includes('INTERNAL_ERROR')) throw new Error(r.error);
  for (const base of [__ENV.H2, __ENV.PLAIN]) {
    r = http.get(base + '/early');
    eq([r.status, r.body, r.headers['Link']], [200, 'final', undefined], base + ': 103 then 200');
  }
  eq(http.get(__ENV.H2 + '/early').proto, 'HTTP/2.0', 'proto');
  eq(http.get(__ENV.PLAIN + '/early').proto, 'HTTP/1.1', 'proto');
}`, map[string]string{"H2": h2.URL, "PLAIN": plain.URL}, func(run *modules.Run) { run.InsecureSkipTLSVerify = true })
	if s := r.of("http_reqs"); len(s) != 5 || s[0].Tags["error_code"] != "1633" {
		t.Fatalf("http_reqs %d, first tagged %v", len(s), s[0].Tags)
	}
}
