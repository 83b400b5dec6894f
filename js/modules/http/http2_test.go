package k6http_test

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
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

// goAwayServer starts a TLS server speaking just enough HTTP/2 by hand:
// once a request's HEADERS arrive it sends GOAWAY (last stream 1,
// ENHANCE_YOUR_CALM) and closes the connection.
func goAwayServer(t *testing.T) string {
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
			go serveGoAway(c)
		}
	}()
	return "https://" + l.Addr().String()
}

// serveGoAway answers one connection's first request with GOAWAY.
func serveGoAway(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	if _, err := io.ReadFull(r, make([]byte, 24)); err != nil { // the client preface
		return
	}
	frame := func(typ, flags byte, payload []byte) []byte {
		n := len(payload)
		return append([]byte{byte(n >> 16), byte(n >> 8), byte(n), typ, flags, 0, 0, 0, 0}, payload...)
	}
	_, _ = c.Write(frame(0x4, 0, nil)) // SETTINGS
	for {
		var h [9]byte
		if _, err := io.ReadFull(r, h[:]); err != nil {
			return
		}
		n := int(h[0])<<16 | int(h[1])<<8 | int(h[2])
		if _, err := io.ReadFull(r, make([]byte, n)); err != nil {
			return
		}
		switch {
		case h[3] == 0x4 && h[4]&1 == 0: // the client's SETTINGS: acknowledge
			_, _ = c.Write(frame(0x4, 1, nil))
		case h[3] == 0x1: // HEADERS of stream 1
			_, _ = c.Write(frame(0x7, 0, []byte{0, 0, 0, 1, 0, 0, 0, 0xb}))
			return
		}
	}
}

func TestHTTP2GoAway(t *testing.T) {
	base := goAwayServer(t)
	mustRun(t, `export default function () {
  const r = http.get(__ENV.BASE + '/');
  eq([r.status, r.error_code], [0, 1622], 'GOAWAY with ENHANCE_YOUR_CALM');
  if (!r.error.includes('GOAWAY')) throw new Error(r.error);
}`, map[string]string{"BASE": base}, func(run *modules.Run) { run.InsecureSkipTLSVerify = true })
}
