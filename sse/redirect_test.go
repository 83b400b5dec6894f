package sse

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
)

// landed is a request a redirect test server received.
type landed struct {
	method, path, body string
	header             http.Header
}

// landingServer redirects /start/<status> to target()+"/land" and answers
// /land with an event stream, recording every request it receives.
type landingServer struct {
	*httptest.Server

	mu     sync.Mutex
	target func() string
	got    []landed
}

// newLandingServer starts a landing server, over TLS if secure; target
// defaults to the server itself.
func newLandingServer(t *testing.T, secure bool) *landingServer {
	s := &landingServer{}
	h := http.HandlerFunc(s.serve)
	if secure {
		s.Server = httptest.NewTLSServer(h)
	} else {
		s.Server = httptest.NewServer(h)
	}
	s.redirectTo(func() string { return s.URL })
	t.Cleanup(s.Close)
	return s
}

// redirectTo sets where /start/ redirects to.
func (s *landingServer) redirectTo(target func() string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.target = target
}

// serve records the request and redirects or answers it.
func (s *landingServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.got = append(s.got, landed{method: r.Method, path: r.URL.Path, body: string(body), header: r.Header.Clone()})
	target := s.target
	s.mu.Unlock()
	if status, ok := strings.CutPrefix(r.URL.Path, "/start/"); ok {
		status, _, _ = strings.Cut(status, "/")
		code, _ := strconv.Atoi(status)
		w.Header().Set("Location", target()+"/land?secret=q")
		w.WriteHeader(code)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, "data: ok\n\n")
}

// received returns the requests to path.
func (s *landingServer) received(path string) []landed {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []landed
	for _, l := range s.got {
		if strings.HasPrefix(l.path, path) {
			out = append(out, l)
		}
	}
	return out
}

// credentials are the headers a redirect test sends: every one of
// httpsafe.CredentialHeaders, X-Secret (listed in SensitiveHeaders) and
// X-Keep, which is not a credential.
var credentials = func() map[string]string {
	m := map[string]string{"X-Secret": "s", "X-Keep": "v"}
	for i, k := range httpsafe.CredentialHeaders {
		m[k] = fmt.Sprintf("secret-%d", i)
	}
	return m
}()

// TestRedirectMatrix follows 301, 302, 303, 307 and 308 from a POST with a
// body and credentials to the same host, another host, and from https to
// http, on every path, and counts what each server received: the POST is
// sent once; 307 and 308 send its body once more, to the new location
// only; 301, 302 and 303 turn it into a GET without body; credentials
// never reach another host; no Referer is added; https to http is refused
// unless allowed.
func TestRedirectMatrix(t *testing.T) {
	for _, where := range []string{"same host", "other host", "https to http", "https to http allowed"} {
		for _, status := range []int{301, 302, 303, 307, 308} {
			for p := range paths {
				t.Run(fmt.Sprintf("%s/%d/%s", where, status, paths[p].name), func(t *testing.T) {
					redirectCase(t, where, status, p)
				})
			}
		}
	}
}

// redirectCase runs one case of TestRedirectMatrix.
func redirectCase(t *testing.T, where string, status, p int) {
	origin := newLandingServer(t, strings.HasPrefix(where, "https"))
	land := origin
	if where != "same host" {
		land = newLandingServer(t, false)
		origin.redirectTo(func() string { return land.URL })
	}
	req := Request{URL: origin.URL + "/start/" + strconv.Itoa(status), Method: http.MethodPost, Body: []byte("payload"),
		Header: http.Header{}, Dialect: DialectRaw, SensitiveHeaders: []string{"X-Secret"},
		AllowInsecureRedirect: where == "https to http allowed"}
	for k, v := range credentials {
		req.Header.Set(k, v)
	}
	r := pathRequest(p, req)
	c := NewClient(ClientOptions{NetHTTPOnly: paths[p].netHTTP, InsecureSkipTLSVerify: true})
	res := c.Do(context.Background(), r)
	if got := origin.received("/start/"); len(got) != 1 || got[0].method != http.MethodPost || got[0].body != "payload" {
		t.Fatalf("origin received %+v, want the POST once", got)
	}
	got := land.received("/land")
	if where == "https to http" {
		if res.ErrorCode != CodeRedirect || len(got) != 0 || strings.Contains(res.Error, "secret") {
			t.Fatalf("%s %q, target received %d; want redirect_error and nothing sent", res.ErrorCode, res.Error, len(got))
		}
		return
	}
	if res.Failed() || res.Text != "ok" || len(got) != 1 {
		t.Fatalf("%s %q text %q; target received %d requests, want 1", res.ErrorCode, res.Error, res.Text, len(got))
	}
	want, body := http.MethodGet, ""
	if status == 307 || status == 308 {
		want, body = http.MethodPost, "payload"
	}
	if got[0].method != want || got[0].body != body {
		t.Errorf("target received %s %q, want %s %q", got[0].method, got[0].body, want, body)
	}
	checkCredentials(t, got[0].header, where == "same host")
}

// checkCredentials checks which of the credentials arrived: all of them to
// the same host, only X-Keep elsewhere; never a Referer.
func checkCredentials(t *testing.T, h http.Header, same bool) {
	t.Helper()
	for k, v := range credentials {
		keep := same || k == "X-Keep"
		if got := h.Get(k); (got == v) != keep {
			t.Errorf("header %s: got %q, kept %v, want kept %v", k, got, got == v, keep)
		}
	}
	if ref := h.Get("Referer"); ref != "" {
		t.Errorf("Referer %q sent", ref)
	}
}

// TestRedirectLimit follows a redirect loop: maxRedirects redirects are
// followed, the next one fails the request with redirect_error, and a
// negative maxRedirects follows none.
func TestRedirectLimit(t *testing.T) {
	for _, tc := range []struct{ max, requests int }{{3, 4}, {-1, 1}, {0, 11}} {
		for p := range paths {
			t.Run(fmt.Sprintf("%d/%s", tc.max, paths[p].name), func(t *testing.T) {
				srv := newLandingServer(t, false)
				srv.redirectTo(func() string { return srv.URL + "/start/302" })
				c, r := onPath(p, Request{URL: srv.URL + "/start/302", Dialect: DialectRaw, MaxRedirects: tc.max})
				res := c.Do(context.Background(), r)
				if n := len(srv.received("/start/")); res.ErrorCode != CodeRedirect || n != tc.requests || res.Status != 302 {
					t.Errorf("%s %q status %d after %d requests; want redirect_error after %d", res.ErrorCode, res.Error, res.Status, n, tc.requests)
				}
			})
		}
	}
}
