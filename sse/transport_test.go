package sse

import (
	"errors"
	"net/http"
	"net/url"
	"testing"
)

// TestReactorTransportCarries checks which requests the reactor's
// transport takes: plain-HTTP ones its proxy rule sends directly.
func TestReactorTransportCarries(t *testing.T) {
	proxy := func(r *http.Request) (*url.URL, error) {
		switch r.URL.Hostname() {
		case "proxied.test":
			return url.Parse("http://127.0.0.1:1")
		case "broken.test":
			return nil, errors.New("bad proxy setting")
		}
		return nil, nil
	}
	cases := []struct {
		name  string
		proxy func(*http.Request) (*url.URL, error)
		url   string
		want  bool
	}{
		{"plain HTTP", proxy, "http://127.0.0.1:8080/x", true},
		{"plain HTTP, no proxy rule", nil, "http://127.0.0.1/x", true},
		{"TLS", proxy, "https://127.0.0.1/x", false},
		{"through a proxy", proxy, "http://proxied.test/x", false},
		{"proxy rule fails", proxy, "http://broken.test/x", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hreq, err := http.NewRequest(http.MethodGet, tc.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := (reactorTransport{proxy: tc.proxy}).carries(hreq); got != tc.want {
				t.Errorf("carries = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestClientTransports checks the transports a client asks: the reactor
// first unless NetHTTPOnly or a custom Transport turn it off, net/http
// last, which carries every request.
func TestClientTransports(t *testing.T) {
	needReactor(t)
	cases := []struct {
		name    string
		opts    ClientOptions
		reactor bool
	}{
		{"default", ClientOptions{}, true},
		{"NetHTTPOnly", ClientOptions{NetHTTPOnly: true}, false},
		{"custom Transport", ClientOptions{Transport: http.DefaultTransport}, false},
	}
	hreq, err := http.NewRequest(http.MethodGet, "https://127.0.0.1/x", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := NewClient(tc.opts).transports
			if n := len(ts); n == 0 || isReactor(ts[0]) != tc.reactor || isReactor(ts[n-1]) || !ts[n-1].carries(hreq) {
				t.Errorf("transports %#v: want reactor first %v, net/http last", ts, tc.reactor)
			}
		})
	}
}

// isReactor reports whether t is the reactor's transport.
func isReactor(t streamTransport) bool {
	_, ok := t.(reactorTransport)
	return ok
}
