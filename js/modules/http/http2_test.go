package k6http_test

import (
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/js/modules"
	"golang.org/x/net/http2"
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

// goAwayServer starts a TLS server speaking just enough HTTP/2, with
// golang.org/x/net/http2's Framer: once a request's HEADERS arrive it sends
// GOAWAY (lastStream, code, debug data "whatever"), so the GOAWAY reaches
// the request in flight, and closes the connection.
func goAwayServer(t *testing.T, lastStream uint32, code http2.ErrCode) string {
	t.Helper()
	certPEM, keyPEM := clientKeyPair(t, "127.0.0.1")
	cert, err := tls.X509KeyPair([]byte(certPEM), []byte(keyPEM))
	if err != nil {
		t.Fatal(err)
	}
	l, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go serveGoAway(c.(*tls.Conn), lastStream, code)
		}
	}()
	return "https://" + l.Addr().String()
}

// serveGoAway answers one connection's first request with GOAWAY, then
// half-closes the connection and reads what the client still sends until
// it closes too (closing with unread data would reset the connection).
func serveGoAway(c *tls.Conn, lastStream uint32, code http2.ErrCode) {
	defer c.Close()
	if _, err := io.ReadFull(c, make([]byte, len(http2.ClientPreface))); err != nil {
		return
	}
	fr := http2.NewFramer(c, c)
	_ = fr.WriteSettings()
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				_ = fr.WriteSettingsAck()
			}
		case *http2.HeadersFrame:
			_ = fr.WriteGoAway(lastStream, code, []byte("whatever"))
			_ = c.CloseWrite()
			_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, _ = io.Copy(io.Discard, c)
			return
		}
	}
}

// TestHTTP2GoAway checks k6's codes for a GOAWAY that reaches a request in
// flight: 1610 + 1 + the HTTP/2 error code when the server had taken the
// request (its last stream ID is the request's or above) and closed the
// connection; 1000, as in k6, when the GOAWAY says the server never took
// the request.
func TestHTTP2GoAway(t *testing.T) {
	for _, tc := range []struct {
		name       string
		lastStream uint32
		code       http2.ErrCode
		want       int
	}{
		{"ENHANCE_YOUR_CALM", 1, http2.ErrCodeEnhanceYourCalm, 1622},
		{"INADEQUATE_SECURITY, last stream above", 4, http2.ErrCodeInadequateSecurity, 1623},
		{"NO_ERROR", 1, http2.ErrCodeNo, 1611},
		{"request never taken", 0, http2.ErrCodeEnhanceYourCalm, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustRun(t, `export default function () {
  const r = http.get(__ENV.BASE + '/');
  eq([r.status, r.error_code], [0, Number(__ENV.WANT)], 'status and error_code');
  if (!r.error.includes('GOAWAY') || !r.error.includes(__ENV.CODE)) throw new Error(r.error);
}`, map[string]string{"BASE": goAwayServer(t, tc.lastStream, tc.code), "WANT": fmt.Sprint(tc.want), "CODE": tc.code.String()},
				func(run *modules.Run) { run.InsecureSkipTLSVerify = true })
			if s := r.of("http_reqs"); len(s) != 1 || s[0].Tags["error_code"] != fmt.Sprint(tc.want) {
				t.Errorf("http_reqs %+v", s)
			}
		})
	}
}
