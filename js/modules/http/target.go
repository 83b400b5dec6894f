package k6http

import (
	"fmt"
	"net/url"

	"github.com/usefullatency/usefullatency/internal/redact"
)

// hopURL is where one hop of a request goes: its URL, the string it is
// sent to and recorded as, and that string parsed again, as net/http
// parses the URL it is given. It is made once per URL a VU requests (see
// urlCache) or per redirect hop, and never modified: the requests to one
// URL share it.
type hopURL struct {
	// u is the hop's URL (httpsafe.Hop.URL).
	u *url.URL
	// str is u.String(): the URL the exchange records.
	str string
	// parsed is url.Parse(str), the URL the request is built from; nil
	// when parsing failed with err.
	parsed *url.URL
	err    error
	// redacted is redact.URL(str): the name and url tags.
	redacted string
}

// newHopURL returns the hop to u.
func newHopURL(u *url.URL) *hopURL {
	h := &hopURL{u: u, str: u.String()}
	h.parsed, h.err = url.Parse(h.str)
	h.redacted = redact.URL(h.str)
	return h
}

// parsedURL is the url argument of a request parsed, with what the
// request derives from it; shared by the requests of a VU to the same URL
// (see urlCache) and never modified.
type parsedURL struct {
	// raw is the url argument.
	raw string
	// u is url.Parse(raw), its credentials included.
	u *url.URL
	// url is u without its credentials, as a string: request.url.
	url string
	// first is the first hop, to url parsed again; nil when that fails
	// (do then parses it itself).
	first *hopURL
}

// newParsedURL parses the url argument s; the error names it, its secrets
// masked.
func newParsedURL(s string) (*parsedURL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("k6/http: invalid url %q: %w", redact.URL(s), redact.Error(err))
	}
	bare := *u
	bare.User = nil
	p := &parsedURL{raw: s, u: u, url: bare.String()}
	if first, err := url.Parse(p.url); err == nil {
		p.first = newHopURL(first)
	}
	return p, nil
}

// urlCacheSize is how many URLs a VU's urlCache keeps: a script requests
// a handful of endpoints over and over.
const urlCacheSize = 8

// urlCache keeps the last urlCacheSize url arguments of a VU's requests
// parsed, so that a request to a URL the VU requested lately parses
// nothing. It is used on the VU's goroutine only (prepare); the entries it
// hands out are shared read-only with the requests, wherever they are
// sent from. A nil cache parses every time.
type urlCache struct {
	entries [urlCacheSize]*parsedURL
	// next is the slot the next new URL takes, the oldest.
	next int
}

// parse returns s parsed, from the cache when s is in it.
func (c *urlCache) parse(s string) (*parsedURL, error) {
	if c == nil {
		return newParsedURL(s)
	}
	for _, e := range c.entries {
		if e != nil && e.raw == s {
			return e, nil
		}
	}
	e, err := newParsedURL(s)
	if err != nil {
		return nil, err
	}
	c.entries[c.next] = e
	c.next = (c.next + 1) % urlCacheSize
	return e, nil
}
