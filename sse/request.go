package sse

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/internal/redact"
)

// Defaults of Request's zero values.
const (
	// DefaultTimeout bounds the whole exchange.
	DefaultTimeout = 60 * time.Second
	// DefaultIdleTimeout bounds the silence (no byte) after the headers.
	DefaultIdleTimeout = 30 * time.Second
	// DefaultMaxEventSize is the largest accepted event, 1 MiB.
	DefaultMaxEventSize = 1 << 20
	// DefaultMaxRedirects is how many redirects a request follows.
	DefaultMaxRedirects = httpsafe.DefaultMaxRedirects
	// DefaultMaxResponseSize bounds a response body after decoding, 64 MiB.
	DefaultMaxResponseSize = httpsafe.DefaultMaxResponseSize
	// DefaultMaxHeaderSize bounds a response's headers, 10 MiB.
	DefaultMaxHeaderSize = httpsafe.DefaultMaxHeaderBytes
)

// Request describes one streaming request.
type Request struct {
	// Method is the HTTP method; defaults to GET, or POST with a body.
	Method string
	// URL is the absolute http or https URL.
	URL string
	// Body is sent as is; nil sends none.
	Body []byte
	// Header holds request headers. Accept defaults to text/event-stream
	// and Accept-Encoding to "gzip, deflate".
	Header http.Header
	// Timeout bounds the whole exchange, connection set-up included;
	// defaults to DefaultTimeout (60 s).
	Timeout time.Duration
	// IdleTimeout bounds the silence after the response headers, during
	// which no byte arrives; defaults to DefaultIdleTimeout (30 s).
	IdleTimeout time.Duration
	// Dialect is the events' shape; "" is auto.
	Dialect Dialect
	// Useful marks the first actionable moment; nil uses DefaultUseful of
	// the (detected) dialect.
	Useful Predicate
	// Marks are named milestones, each timed at its first-true event.
	Marks map[string]Predicate
	// Queue says where the server reports its queue time; the zero value
	// reads Server-Timing "queue", else the field queue_ms.
	Queue QueueSource
	// MaxEventSize is the largest accepted event in bytes as it appears on
	// the wire (field names and line ends included); defaults to
	// DefaultMaxEventSize (1 MiB). A larger event fails the request with
	// event_too_large.
	MaxEventSize int
	// Pricing, when set, turns usage into Result.Cost.
	Pricing *Pricing
	// AcceptContentTypes lists media types accepted besides
	// text/event-stream; "type/*" and "*/*" match families.
	AcceptContentTypes []string
	// OnOpen, when set, is called once the response headers arrived and
	// passed the status and content-type checks, before any event. An
	// error (or panic) ends the request with callback_error; ErrStop ends
	// it cleanly.
	OnOpen func(status int, header http.Header) error
	// OnEvent, when set, is called for every event after it was timestamped
	// and classified, and after the predicates ran. The event is reused
	// after the call. An error (or panic) ends the request with
	// callback_error; ErrStop ends the stream cleanly.
	OnEvent func(ev *Event) error
	// ScheduledAt is when the iteration was due; zero leaves
	// Timings.ScheduleLag nil.
	ScheduledAt time.Time
	// MaxRedirects is how many redirects are followed; zero defaults to
	// DefaultMaxRedirects (10), a negative value follows none. One more
	// fails the request with redirect_error.
	MaxRedirects int
	// SensitiveHeaders lists request headers dropped, besides
	// httpsafe.CredentialHeaders (Authorization, Proxy-Authorization,
	// Cookie, X-Api-Key, Api-Key, X-Goog-Api-Key, Ocp-Apim-Subscription-Key,
	// X-Auth-Token), when a redirect changes the host or the scheme.
	SensitiveHeaders []string
	// AllowInsecureRedirect lets a redirect go from https to http; without
	// it such a redirect fails the request with redirect_error.
	AllowInsecureRedirect bool
	// MaxResponseSize bounds the response body after content decoding, in
	// bytes; defaults to DefaultMaxResponseSize (64 MiB). A larger body, or
	// one that decodes to more than 100 times its encoded size past its
	// first MiB, fails the request with response_too_large.
	MaxResponseSize int64
	// MaxHeaderSize bounds the response's status line and headers, in
	// bytes; defaults to DefaultMaxHeaderSize (10 MiB, net/http's limit),
	// which is also its largest value. More fails the request with
	// response_too_large.
	MaxHeaderSize int
}

// withDefaults returns a copy of r with its zero values replaced.
func (r *Request) withDefaults() Request {
	c := *r
	if c.Method == "" {
		c.Method = http.MethodGet
		if c.Body != nil {
			c.Method = http.MethodPost
		}
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.MaxEventSize == 0 {
		c.MaxEventSize = DefaultMaxEventSize
	}
	if c.MaxRedirects == 0 {
		c.MaxRedirects = DefaultMaxRedirects
	}
	if c.MaxResponseSize == 0 {
		c.MaxResponseSize = DefaultMaxResponseSize
	}
	if c.MaxHeaderSize == 0 {
		c.MaxHeaderSize = DefaultMaxHeaderSize
	}
	if d, err := ParseDialect(string(c.Dialect)); err == nil {
		c.Dialect = d
	}
	return c
}

// Validate returns every problem of the request's settings at once, each
// wrapping ErrInvalidRequest, or nil.
func (r *Request) Validate() error {
	var errs []error
	add := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrInvalidRequest}, args...)...))
	}
	if r.Method != "" && !validToken(r.Method) {
		add("method %q is not an HTTP token", r.Method)
	}
	if !absoluteHTTPURL(r.URL) {
		add("url %q is not an absolute http(s) URL", redact.URL(r.URL))
	}
	if _, err := ParseDialect(string(r.Dialect)); err != nil {
		errs = append(errs, err)
	}
	if r.Timeout < 0 || r.IdleTimeout < 0 {
		add("timeout and idleTimeout must not be negative")
	}
	if r.MaxEventSize < 0 {
		add("maxEventSize must not be negative")
	}
	if r.MaxResponseSize < 0 {
		add("maxResponseSize must not be negative")
	}
	if r.MaxHeaderSize < 0 || r.MaxHeaderSize > DefaultMaxHeaderSize {
		add("maxHeaderSize %d is outside 0..%d bytes (10 MiB)", r.MaxHeaderSize, DefaultMaxHeaderSize)
	}
	for _, name := range r.markNames() {
		if r.Marks[name] == nil {
			add("mark %q has no predicate", name)
		}
	}
	return errors.Join(errs...)
}

// lastAbsoluteURL is the last URL absoluteHTTPURL accepted. A script
// requests one endpoint over and over, and each request is validated when
// it is built and again when it is sent: the URL is parsed once, not twice
// per request.
var lastAbsoluteURL atomic.Pointer[string]

// absoluteHTTPURL reports whether s parses as an absolute http or https
// URL with a host.
func absoluteHTTPURL(s string) bool {
	if last := lastAbsoluteURL.Load(); last != nil && *last == s {
		return true
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	lastAbsoluteURL.Store(&s)
	return true
}

// redirectPolicy returns the policy of the request's redirects.
func (r *Request) redirectPolicy() httpsafe.Policy {
	return httpsafe.Policy{Max: max(r.MaxRedirects, 0), Sensitive: r.SensitiveHeaders, AllowDowngrade: r.AllowInsecureRedirect}
}

// markNames returns the mark names in sorted order.
func (r *Request) markNames() []string {
	names := make([]string, 0, len(r.Marks))
	for n := range r.Marks {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// validToken reports whether s is an RFC 9110 token.
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c > 0x7e || c <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, c) {
			return false
		}
	}
	return true
}

// acceptsContentType reports whether the response's media type is
// text/event-stream or one of extra ("type/*" and "*/*" match families).
func acceptsContentType(mediaType string, extra []string) bool {
	mediaType = strings.ToLower(mediaType)
	if mediaType == "text/event-stream" {
		return true
	}
	for _, e := range extra {
		e = strings.ToLower(strings.TrimSpace(e))
		if e, _, _ = strings.Cut(e, ";"); e == "*/*" || e == mediaType ||
			(strings.HasSuffix(e, "/*") && strings.HasPrefix(mediaType, e[:len(e)-1])) {
			return true
		}
	}
	return false
}
