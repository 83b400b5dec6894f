package httpsafe

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// FuzzNext follows arbitrary Locations from arbitrary URLs and checks the
// policy's promises: no credential reaches another origin, no https to
// http, a body only with 307 and 308, no query or user info in a Referer
// sent elsewhere.
func FuzzNext(f *testing.F) {
	f.Add("https://a.test/x?k=1", "http://b.test/y", 307, false)
	f.Add("http://a.test/x", "//b.test:81/y?q", 302, false)
	f.Add("https://u:p@a.test/x", "https://A.TEST/y", 308, true)
	f.Add("http://a.test/x", "/y", 303, false)
	f.Fuzz(func(t *testing.T, from, loc string, status int, downgrade bool) {
		prev, err := url.Parse(from)
		if err != nil || (prev.Scheme != "http" && prev.Scheme != "https") || prev.Host == "" {
			return
		}
		h := http.Header{"Authorization": {"a"}, "X-Goog-Api-Key": {"g"}, "X-Mine": {"m"}, "Referer": {from}}
		p := Policy{Max: 5, Sensitive: []string{"x-mine"}, AllowDowngrade: downgrade}
		next, err := p.Next(Hop{Method: http.MethodPost, URL: prev, Header: h, Body: []byte("b")}, status, loc, 1)
		if err != nil {
			return
		}
		if prev.Scheme == "https" && next.URL.Scheme == "http" && !downgrade {
			t.Errorf("downgrade to %s", next.URL)
		}
		if (next.Body != nil) != (status == 307 || status == 308) || (next.Body == nil && next.Method == http.MethodPost) {
			t.Errorf("status %d: %s with body %q", status, next.Method, next.Body)
		}
		if prev.Scheme != next.URL.Scheme || !strings.EqualFold(prev.Host, next.URL.Host) {
			ref := next.Header.Get("Referer")
			if next.Header.Get("Authorization") != "" || next.Header.Get("X-Goog-Api-Key") != "" || next.Header.Get("X-Mine") != "" ||
				strings.Contains(ref, "?") || strings.Contains(ref, "@") {
				t.Errorf("%s to %s: headers %v", from, next.URL, next.Header)
			}
		}
	})
}
