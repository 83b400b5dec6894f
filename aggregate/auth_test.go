package aggregate

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestAggregatorToken: with a token, a post without it, with another one
// or in another scheme is refused (401, and the aggregator keeps nothing:
// a forged "whole test, final" post does not end it); the token in the
// Bearer scheme is taken. A web page's post (Origin) is refused even with
// the token.
func TestAggregatorToken(t *testing.T) {
	t.Parallel()
	var log syncWriter
	log.w = &bytes.Buffer{}
	a := New(Config{Interval: time.Hour, Token: testToken, Log: &log})
	h := a.Handler()
	whole := encoded(shareFile(0, 1, 1000, 0, ""))
	for _, tc := range []struct {
		name   string
		header string
		want   int
	}{
		{"no token", "", http.StatusUnauthorized},
		{"another token", "Bearer " + testToken + "x", http.StatusUnauthorized},
		{"a prefix of it", "Bearer " + testToken[:8], http.StatusUnauthorized},
		{"another scheme", "Basic " + testToken, http.StatusUnauthorized},
		{"the token alone", testToken, http.StatusUnauthorized},
	} {
		p := poster{id: "forger", token: "-"}
		req := p.request(whole, true)
		if tc.header != "" {
			req.Header.Set("Authorization", tc.header)
		}
		rec := serveOne(h, req)
		if rec.Code != tc.want || rec.Header().Get("WWW-Authenticate") == "" && tc.want == http.StatusUnauthorized {
			t.Errorf("%s: %d %v, want %d", tc.name, rec.Code, rec.Header(), tc.want)
		}
	}
	page := poster{id: "page"}.request(whole, true)
	page.Header.Set("Origin", "https://evil.example")
	if rec := serveOne(h, page); rec.Code != http.StatusForbidden {
		t.Errorf("a post with an Origin: %d, want 403", rec.Code)
	}
	if a.closed || len(a.runners) != 0 || a.testID != "" {
		t.Fatalf("refused posts changed the state: closed %v, %d runners, test %q", a.closed, len(a.runners), a.testID)
	}
	if code := (poster{id: "runner"}).post(h, whole, false); code != http.StatusNoContent {
		t.Errorf("the right token: %d", code)
	}
	if got := log.String(); !strings.Contains(got, "refused a post from 10.0.0.7 (401 Unauthorized)") || strings.Contains(got, testToken) {
		t.Errorf("log:\n%s", got)
	}
}

// TestAggregatorWithoutToken: without a token the aggregator takes posts
// from its own machine only, addressed to it by a loopback name (a page
// rebinding its name to 127.0.0.1 sends its own Host).
func TestAggregatorWithoutToken(t *testing.T) {
	t.Parallel()
	a := New(Config{Interval: time.Hour})
	h := a.Handler()
	body := encoded(shareFile(0, 1, 1, 0, ""))
	for _, tc := range []struct {
		remote, host string
		want         int
	}{
		{"10.0.0.7:4000", "aggregator:6566", http.StatusForbidden},
		{"[fd00::7]:4000", "[fd00::1]:6566", http.StatusForbidden},
		{"127.0.0.1:4000", "evil.example:6566", http.StatusForbidden},
		{"127.0.0.1:4000", "127.0.0.1:6566", http.StatusNoContent},
		{"[::1]:4000", "localhost:6566", http.StatusNoContent},
	} {
		req := poster{id: "r-" + tc.host, token: "-", remote: tc.remote}.request(body, false)
		req.Host = tc.host
		a.runners = map[string]*runnerState{} // each post is the first
		if rec := serveOne(h, req); rec.Code != tc.want {
			t.Errorf("from %s to %s: %d %s, want %d", tc.remote, tc.host, rec.Code, rec.Body, tc.want)
		}
	}
}

func TestCheckToken(t *testing.T) {
	for tok, ok := range map[string]bool{
		"":                        false,
		"short":                   false,
		"0123456789abcdef":        true,
		"with space in it":        false,
		"tab\tin-the-token":       false,
		"newline\nin-the-token":   false,
		"ünïcode-token":           false,
		strings.Repeat("x", 4096): true,
		strings.Repeat("x", 4097): false,
	} {
		if err := CheckToken(tok); (err == nil) != ok {
			t.Errorf("CheckToken(%.20q) = %v, want ok %v", tok, err, ok)
		}
	}
}
