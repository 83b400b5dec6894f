package sse

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/usefullatency/usefullatency/internal/netstack"
)

// peerServer streams one raw event carrying the address the request came
// from, and the organization of the client certificate over TLS.
func peerServer(t *testing.T, tlsOn bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		if r.TLS != nil {
			org := "none"
			if len(r.TLS.PeerCertificates) > 0 {
				org = strings.Join(r.TLS.PeerCertificates[0].Subject.Organization, "")
			}
			host += " " + org
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\nevent: done\ndata: x\n\n", host)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	if tlsOn {
		srv.TLS = &tls.Config{ClientAuth: tls.RequestClientCert}
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv
}

func TestClientDialOnBothPaths(t *testing.T) {
	srv := peerServer(t, false)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	d := netstack.NewDialer(netstack.Config{
		Hosts:          map[string]string{"stream.test": "127.0.0.1:" + port},
		BlockHostnames: []string{"*.blocked.test"},
		BlacklistIPs:   []netip.Prefix{netip.MustParsePrefix("127.0.0.9/32")},
		LocalAddr:      netip.MustParseAddr("127.0.0.2"),
	}, nil)
	for _, netHTTP := range []bool{false, true} {
		t.Run(fmt.Sprintf("netHTTPOnly=%v", netHTTP), func(t *testing.T) {
			c := NewClient(ClientOptions{Dial: d.DialContext, NetHTTPOnly: netHTTP})
			res := c.Do(context.Background(), &Request{URL: "http://stream.test/", Dialect: "raw"})
			if res.ErrorCode != "" || res.Text != "127.0.0.2" {
				t.Errorf("through hosts from localIPs: text %q, %s %s", res.Text, res.ErrorCode, res.Error)
			}
			for url, code := range map[string]string{"http://a.blocked.test/": CodeBlockedHost, "http://127.0.0.9:" + port + "/": CodeBlockedIP} {
				res := c.Do(context.Background(), &Request{URL: url, Dialect: "raw"})
				if res.ErrorCode != code || res.Status != 0 {
					t.Errorf("%s: %s (%s), status %d; want %s", url, res.ErrorCode, res.Error, res.Status, code)
				}
			}
		})
	}
}

func TestClientTLSConfig(t *testing.T) {
	srv := peerServer(t, true)
	cert := srv.TLS.Certificates[0] // the test server's own pair, as a client certificate
	cfg := netstack.TLS{
		InsecureSkipVerify: true,
		ClientCerts:        []netstack.ClientCert{{Cert: cert, Domains: []string{"127.0.0.1"}}},
	}.Config()
	res := NewClient(ClientOptions{TLSConfig: cfg}).Do(context.Background(), &Request{URL: srv.URL, Dialect: "raw"})
	if res.ErrorCode != "" || res.Text != "127.0.0.1 Acme Co" {
		t.Errorf("client certificate of the host: text %q, %s %s", res.Text, res.ErrorCode, res.Error)
	}
	other := netstack.TLS{InsecureSkipVerify: true, ClientCerts: []netstack.ClientCert{{Cert: cert, Domains: []string{"*.other.test"}}}}
	res = NewClient(ClientOptions{TLSConfig: other.Config()}).Do(context.Background(), &Request{URL: srv.URL, Dialect: "raw"})
	if res.Text != "127.0.0.1 none" {
		t.Errorf("certificate of another domain: text %q, %s %s", res.Text, res.ErrorCode, res.Error)
	}
	res = NewClient(ClientOptions{TLSConfig: netstack.TLS{}.Config()}).Do(context.Background(), &Request{URL: srv.URL, Dialect: "raw"})
	if res.ErrorCode != CodeTLS {
		t.Errorf("verified by default: %s %s, want tls_error", res.ErrorCode, res.Error)
	}
}

func TestClientDisableKeepAlives(t *testing.T) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: hi\n\nevent: done\ndata: x\n\n")
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	for _, tt := range []struct {
		netHTTP, disable bool
		want             int64
	}{{false, false, 1}, {false, true, 3}, {true, false, 1}, {true, true, 3}} {
		conns.Store(0)
		c := NewClient(ClientOptions{NetHTTPOnly: tt.netHTTP, DisableKeepAlives: tt.disable})
		for range 3 {
			if res := c.Do(context.Background(), &Request{URL: srv.URL, Dialect: "raw"}); res.ErrorCode != "" {
				t.Fatalf("%+v: %s %s", tt, res.ErrorCode, res.Error)
			}
		}
		c.CloseIdleConnections()
		if got := conns.Load(); got != tt.want {
			t.Errorf("netHTTPOnly=%v DisableKeepAlives=%v: %d connections for 3 requests, want %d", tt.netHTTP, tt.disable, got, tt.want)
		}
	}
}
