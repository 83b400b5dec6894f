package k6http

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestURLCache checks the VU's cache of parsed URLs: the same string gets
// the same entry, a changed one (by a single character) its own parse,
// credentials stay out of the request's URL, a bad URL fails every time
// with the argument's error, and the cache keeps at most urlCacheSize
// URLs, dropping the oldest.
func TestURLCache(t *testing.T) {
	var c urlCache
	a, err := c.parse("http://example.com/a?x=1")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := c.parse("http://example.com/a?x=1"); again != a {
		t.Error("the same URL was parsed again")
	}
	b, _ := c.parse("http://example.com/a?x=2")
	if b == a || b.first.str != "http://example.com/a?x=2" || b.first.parsed.RawQuery != "x=2" {
		t.Errorf("a changed URL got %+v", b.first)
	}
	creds, _ := c.parse("http://user:secret@example.com/")
	if creds.url != "http://example.com/" || creds.u.User.Username() != "user" || creds.first.str != creds.url {
		t.Errorf("credentials: url %q, user %v, first hop %q", creds.url, creds.u.User, creds.first.str)
	}
	for range 2 {
		if _, err := c.parse("http://[::1"); err == nil || !strings.HasPrefix(err.Error(), "k6/http: invalid url") {
			t.Errorf("bad URL: %v", err)
		}
	}
	for i := range urlCacheSize {
		if _, err := c.parse("http://example.com/" + strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	if again, _ := c.parse("http://example.com/a?x=1"); again == a {
		t.Errorf("%d URLs later the first is still kept", urlCacheSize)
	}
	kept := 0
	for _, e := range c.entries {
		if e != nil {
			kept++
		}
	}
	if kept != urlCacheSize {
		t.Errorf("%d entries kept, want %d", kept, urlCacheSize)
	}
}

// TestHopURLAsParsed checks that a hop's URL, its string and its parse
// are what do, hopHeader and send computed from the URL each time.
func TestHopURLAsParsed(t *testing.T) {
	for _, raw := range []string{
		"http://example.com/a/b?q=1#frag", "http://example.com:/x", "http://[::1]:8080/p%2Fq", "https://h/?token=abc",
		"http://h/a b",
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		h := newHopURL(u)
		want, wantErr := url.Parse(u.String())
		if h.str != u.String() || !reflect.DeepEqual(h.parsed, want) || h.err != wantErr {
			t.Errorf("%s: hop %q %+v %v, want %q %+v %v", raw, h.str, h.parsed, h.err, u.String(), want, wantErr)
		}
	}
}

// TestNewHTTPRequestAsNetHTTP checks that newHTTPRequest builds the
// request http.NewRequestWithContext builds from the same string: method,
// URL (an empty port dropped), protocol, host, body, length, GetBody and
// context; and fails as it does.
func TestNewHTTPRequestAsNetHTTP(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, 1)
	header := http.Header{"X-A": {"b"}}
	cases := []struct {
		method, url string
		body        []byte
	}{
		{"GET", "http://example.com/a?b=c", nil},
		{"GET", "http://example.com:/a", nil},
		{"GET", "http://[::1]:/a", nil},
		{"POST", "http://example.com:8080/", []byte("payload")},
		{"PUT", "http://example.com/", []byte{}},
		{"", "http://example.com/", nil},
		{"GET", "http://user:pass@example.com/a%2Fb", nil},
	}
	for _, c := range cases {
		u, _ := url.Parse(c.url)
		got, err := newHTTPRequest(ctx, c.method, newHopURL(u), header, c.body)
		if err != nil {
			t.Fatalf("%s %s: %v", c.method, c.url, err)
		}
		var body io.Reader
		if c.body != nil {
			body = bytes.NewReader(c.body)
		}
		want, _ := http.NewRequestWithContext(ctx, c.method, u.String(), body)
		want.Header = header
		if got.Method != want.Method || !reflect.DeepEqual(got.URL, want.URL) || got.Proto != want.Proto ||
			got.ProtoMajor != want.ProtoMajor || got.ProtoMinor != want.ProtoMinor || got.Host != want.Host ||
			got.ContentLength != want.ContentLength || !reflect.DeepEqual(got.Header, want.Header) || got.Context() != ctx {
			t.Errorf("%s %s:\n got %+v\nwant %+v", c.method, c.url, got, want)
		}
		if (got.Body == nil) != (want.Body == nil) || (got.Body == http.NoBody) != (want.Body == http.NoBody) ||
			(got.GetBody == nil) != (want.GetBody == nil) {
			t.Errorf("%s %s: body %T, GetBody %v; want %T, %v", c.method, c.url, got.Body, got.GetBody != nil, want.Body, want.GetBody != nil)
		}
		if got.Body != nil {
			b, _ := io.ReadAll(got.Body)
			again, _ := got.GetBody()
			b2, _ := io.ReadAll(again)
			if !bytes.Equal(b, c.body) || !bytes.Equal(b2, c.body) {
				t.Errorf("%s %s: body %q, again %q", c.method, c.url, b, b2)
			}
		}
	}
	for _, bad := range []string{"http://[::1", "http://h:port/"} { // what url.Parse refuses
		_, perr := url.Parse(bad)
		_, err := newHTTPRequest(ctx, "GET", &hopURL{str: bad, err: perr}, header, nil)
		if _, want := http.NewRequest("GET", bad, nil); err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("bad URL: %v, want %v", err, want)
		}
	}
	if _, err := newHTTPRequest(ctx, "BAD METHOD", newHopURL(&url.URL{Scheme: "http", Host: "h"}), header, nil); err == nil ||
		err.Error() != `net/http: invalid method "BAD METHOD"` {
		t.Errorf("bad method: %v", err)
	}
}
