package httpsafe

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestNext checks the policy's rules one by one: method and body per
// status, credentials per origin change, downgrade, limit and Location.
func TestNext(t *testing.T) {
	prev := func(raw string) Hop {
		u, _ := url.Parse(raw)
		h := http.Header{"Authorization": {"a"}, "X-Api-Key": {"k"}, "X-Mine": {"m"}, "Content-Type": {"text/plain"},
			"Referer": {"https://user:pw@a.test/page?token=1"}, "Host": {"a.test"}}
		return Hop{Method: http.MethodPost, URL: u, Header: h, Body: []byte("b")}
	}
	p := Policy{Max: 2, Sensitive: []string{"X-Mine"}}
	for _, tc := range []struct {
		name, from, loc   string
		status, followed  int
		method, body, err string
		creds             bool
		referer           string
	}{
		{"307 same host", "https://a.test/x", "/y", 307, 1, "POST", "b", "", true, "https://user:pw@a.test/page?token=1"},
		{"303 same host", "https://a.test/x", "/y", 303, 1, "GET", "", "", true, "https://user:pw@a.test/page?token=1"},
		{"308 other host", "https://a.test/x", "https://b.test/y", 308, 1, "POST", "b", "", false, "https://a.test/"},
		{"301 other port", "http://a.test/x", "http://a.test:81/y", 301, 1, "GET", "", "", false, "https://a.test/"},
		{"downgrade", "https://a.test/x", "http://a.test/y", 302, 1, "", "", "from https to http", false, ""},
		{"too many", "https://a.test/x", "/y", 302, 3, "", "", "too many redirects", false, ""},
		{"not http", "https://a.test/x", "ftp://a.test/y", 302, 1, "", "", "not an http(s) URL", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next, err := p.Next(prev(tc.from), tc.status, tc.loc, tc.followed)
			if tc.err != "" {
				if !errors.Is(err, ErrRedirect) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || next.Method != tc.method || string(next.Body) != tc.body {
				t.Fatalf("%v %s %q", err, next.Method, next.Body)
			}
			kept := next.Header.Get("Authorization") != "" && next.Header.Get("X-Api-Key") != "" && next.Header.Get("X-Mine") != ""
			gone := next.Header.Get("Authorization") == "" && next.Header.Get("X-Api-Key") == "" && next.Header.Get("X-Mine") == ""
			if (tc.creds && !kept) || (!tc.creds && !gone) || next.Header.Get("Referer") != tc.referer {
				t.Errorf("headers %v", next.Header)
			}
			if (tc.body == "") != (next.Header.Get("Content-Type") == "") {
				t.Errorf("Content-Type %q with body %q", next.Header.Get("Content-Type"), next.Body)
			}
		})
	}
}

// TestNextMethods checks the method and body of the request that follows
// each redirect status, and that the original headers are left alone.
func TestNextMethods(t *testing.T) {
	u, _ := url.Parse("http://a/x")
	h := http.Header{"Content-Type": {"text/plain"}, "Authorization": {"Basic x"}}
	for _, c := range []struct {
		status             int
		method, wantMethod string
		keepsBody          bool
	}{
		{301, "POST", "GET", false}, {302, "PUT", "GET", false}, {303, "POST", "GET", false},
		{302, "HEAD", "HEAD", false}, {307, "POST", "POST", true}, {308, "PATCH", "PATCH", true},
	} {
		next, err := Policy{Max: 1}.Next(Hop{Method: c.method, URL: u, Header: h, Body: []byte("b")}, c.status, "http://b/y", 1)
		if err != nil || next.Method != c.wantMethod || (next.Body != nil) != c.keepsBody ||
			(next.Header.Get("Content-Type") != "") != c.keepsBody || next.Header.Get("Authorization") != "" {
			t.Errorf("%d %s: %v %s, body %q, headers %v", c.status, c.method, err, next.Method, next.Body, next.Header)
		}
	}
	if h.Get("Authorization") == "" || h.Get("Content-Type") == "" {
		t.Error("the original headers were modified")
	}
}

// TestNextDropsSubscriptionKey checks that the API-key headers of the
// gateways assistants sit behind (Azure API Management's
// Ocp-Apim-Subscription-Key, X-Auth-Token) never follow a redirect to
// another host, and do follow one on the same host.
func TestNextDropsSubscriptionKey(t *testing.T) {
	u, _ := url.Parse("https://apim.example/openai/chat")
	for _, k := range []string{"Ocp-Apim-Subscription-Key", "X-Auth-Token"} {
		h := http.Header{}
		h.Set(k, "sub-s3cret")
		for loc, kept := range map[string]bool{"https://evil.example/x": false, "/other": true} {
			next, err := Policy{Max: 1}.Next(Hop{Method: http.MethodPost, URL: u, Header: h}, http.StatusTemporaryRedirect, loc, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := next.Header.Get(k) != ""; got != kept {
				t.Errorf("%s after a redirect to %s: kept %v, want %v", k, loc, got, kept)
			}
		}
	}
}
