package k6http

import (
	"strings"
	"testing"
)

// The worked example of RFC 2617 section 3.5.
func TestDigestAuthorizationRFC2617(t *testing.T) {
	old := newCnonce
	newCnonce = func() string { return "0a4f113b" }
	defer func() { newCnonce = old }()
	challenge := `Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"`
	got, ok := digestAuthorization([]string{`Basic realm="x"`, challenge},
		&credentials{user: "Mufasa", pass: "Circle Of Life"}, "GET", "http://www.nowhere.org/dir/index.html", nil)
	if !ok {
		t.Fatal("no answer")
	}
	for _, want := range []string{`username="Mufasa"`, `uri="/dir/index.html"`, "qop=auth,", "nc=00000001",
		`cnonce="0a4f113b"`, `response="6629fae49393a05397450978507c4ef1"`, `opaque="5ccc069c403ebaf9f0171e9517f40e41"`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s\nlacks %s", got, want)
		}
	}
}

func TestDigestAuthorizationRefuses(t *testing.T) {
	c := &credentials{user: "u", pass: "p"}
	for _, ch := range []string{`Basic realm="x"`, `Digest realm="x", nonce="n", algorithm=SHA-512-256`} {
		if got, ok := digestAuthorization([]string{ch}, c, "GET", "http://h/", nil); ok {
			t.Errorf("%s answered with %s", ch, got)
		}
	}
}

func TestAuthParams(t *testing.T) {
	got := authParams(`realm="a, \"b\"", nonce=xyz , qop="auth", stale=FALSE`)
	want := map[string]string{"realm": `a, "b"`, "nonce": "xyz", "qop": "auth", "stale": "FALSE"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}
