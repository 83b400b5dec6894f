package sse

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/usefullatency/usefullatency/internal/pktcap"
	"github.com/usefullatency/usefullatency/internal/sockstamp"
	"github.com/usefullatency/usefullatency/sse/internal/reactor"
)

// ClientOptions configures a Client. The zero value is ready to use.
type ClientOptions struct {
	// InsecureSkipTLSVerify disables certificate verification, for test
	// endpoints.
	InsecureSkipTLSVerify bool
	// DisableHTTP2 keeps the client on HTTP/1.1 even when the server offers
	// HTTP/2 through ALPN.
	DisableHTTP2 bool
	// DialTimeout bounds DNS resolution and TCP connection; defaults to 30 s.
	// The request's Timeout bounds it too.
	DialTimeout time.Duration
	// MaxIdleConnsPerHost is the number of idle connections kept per host
	// for reuse; defaults to 32.
	MaxIdleConnsPerHost int
	// IdleConnTimeout closes a kept-alive connection idle for that long;
	// defaults to 90 s, net/http's default.
	IdleConnTimeout time.Duration
	// UserAgent is sent unless the request sets one; defaults to
	// "usefullatency".
	UserAgent string
	// Transport, when set, replaces the client's own transport (tests,
	// custom dialers). It must not decode Content-Encoding by itself, or
	// BytesReceived counts decoded bytes. Every request then goes through it.
	Transport http.RoundTripper
	// NetHTTPOnly sends every request through net/http, not through the
	// reactor that reads plain-HTTP streams (comparisons, diagnosis).
	NetHTTPOnly bool
	// Dial, when set, dials every connection of the client, on both paths
	// (net/http and the reactor), in place of a net.Dialer of DialTimeout:
	// k6's hosts, blockHostnames, blacklistIPs, dns and localIPs options
	// (a netstack.Dialer). It returns the *net.TCPConn it dialed.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// TLSConfig, when set, is the TLS configuration of https requests
	// (tlsVersion, tlsCipherSuites, tlsAuth); InsecureSkipTLSVerify still
	// applies. Its GetClientCertificate sees the request's host through
	// netstack.WithServerName.
	TLSConfig *tls.Config
	// NoUserAgent sends no User-Agent unless the request sets one (k6's
	// userAgent option set to "").
	NoUserAgent bool
	// DisableKeepAlives closes each connection after its request, on both
	// paths (k6's noConnectionReuse).
	DisableKeepAlives bool
	// Capture, when set, gives every byte of the client's connections the
	// arrival of its own TCP segment (--probe-capture): a read that found
	// several events waiting is split between them.
	Capture *pktcap.Capture
}

// Client sends streaming requests. Use one per VU: it keeps connections
// alive and reuses them (HTTP/1.1, and HTTP/2 negotiated through ALPN over
// TLS). It decodes gzip and deflate itself, to count bytes as they came off
// the wire. Do is safe for concurrent use.
type Client struct {
	hc        *http.Client
	transport *http.Transport // nil with a custom Transport
	wire      *reactor.Pool   // plain-HTTP/1.1 connections read by the reactor; nil if none
	// transports are asked in turn which carries a request: the reactor
	// first when there is one, net/http last (it carries every request).
	transports []streamTransport
	userAgent  []string // the User-Agent header's value, shared by the requests
}

// NewClient returns a client configured by opts.
func NewClient(opts ClientOptions) *Client {
	sockstamp.KeepOn() // the first stream's first bytes are stamped too
	ua := opts.UserAgent
	if ua == "" && !opts.NoUserAgent {
		ua = "usefullatency"
	}
	c := &Client{userAgent: []string{ua}}
	rt := opts.Transport
	if rt == nil {
		c.transport = newTransport(opts)
		rt = c.transport
		if !opts.NetHTTPOnly {
			c.wire = reactor.NewPool(opts.dialFunc(), opts.wireIdle(), opts.idleTimeout())
			c.wire.Track(opts.Capture)
		}
	}
	// Redirects are followed by the exchange, by the request's policy, on
	// both paths.
	c.hc = &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	if c.wire != nil {
		c.transports = append(c.transports, reactorTransport{pool: c.wire, proxy: c.transport.Proxy})
	}
	c.transports = append(c.transports, netHTTPTransport{hc: c.hc})
	return c
}

// dialTimeout returns DialTimeout or its default.
func (o ClientOptions) dialTimeout() time.Duration {
	if o.DialTimeout <= 0 {
		return 30 * time.Second
	}
	return o.DialTimeout
}

// dialFunc returns Dial, or a net.Dialer of DialTimeout.
func (o ClientOptions) dialFunc() func(ctx context.Context, network, addr string) (net.Conn, error) {
	if o.Dial != nil {
		return o.Dial
	}
	return (&net.Dialer{Timeout: o.dialTimeout(), KeepAlive: 30 * time.Second}).DialContext
}

// tlsConfig returns a copy of TLSConfig, or a new configuration, with
// InsecureSkipTLSVerify applied.
func (o ClientOptions) tlsConfig() *tls.Config {
	c := &tls.Config{}
	if o.TLSConfig != nil {
		c = o.TLSConfig.Clone()
	}
	c.InsecureSkipVerify = c.InsecureSkipVerify || o.InsecureSkipTLSVerify //nolint:gosec // test endpoints, opt-in
	return c
}

// wireIdle returns the idle connections the reactor keeps per host: none
// with DisableKeepAlives.
func (o ClientOptions) wireIdle() int {
	if o.DisableKeepAlives {
		return 0
	}
	return o.idleConns()
}

// idleTimeout returns IdleConnTimeout or its default.
func (o ClientOptions) idleTimeout() time.Duration {
	if o.IdleConnTimeout <= 0 {
		return 90 * time.Second
	}
	return o.IdleConnTimeout
}

// idleConns returns MaxIdleConnsPerHost or its default.
func (o ClientOptions) idleConns() int {
	if o.MaxIdleConnsPerHost <= 0 {
		return 32
	}
	return o.MaxIdleConnsPerHost
}

// newTransport builds the client's HTTP transport.
func newTransport(opts ClientOptions) *http.Transport {
	idle := opts.idleConns()
	t := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         stampDialer{opts.dialFunc(), opts.Capture}.DialContext,
		TLSClientConfig:     opts.tlsConfig(),
		TLSHandshakeTimeout: 10 * time.Second,
		ForceAttemptHTTP2:   !opts.DisableHTTP2,
		DisableCompression:  true,
		DisableKeepAlives:   opts.DisableKeepAlives,
		MaxIdleConns:        idle * 4,
		MaxIdleConnsPerHost: idle,
		IdleConnTimeout:     opts.idleTimeout(),
		// Requests may lower the limit (Request.MaxHeaderSize).
		MaxResponseHeaderBytes: DefaultMaxHeaderSize,
	}
	if opts.DisableHTTP2 {
		t.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	} else {
		useH2(t, opts.idleTimeout())
	}
	return t
}

// CloseIdleConnections closes the client's idle kept-alive connections.
func (c *Client) CloseIdleConnections() {
	for _, t := range c.transports {
		t.closeIdle()
	}
}

// Do sends the request and reads its stream to the end. It blocks until the
// stream ends, fails, or ctx is done, and never panics: every request ends
// in exactly one outcome, recorded in the Result with the timings reached
// so far.
func (c *Client) Do(ctx context.Context, req *Request) (res *Result) {
	if req == nil {
		return &Result{ErrorCode: CodeInvalidRequest, Error: "nil request", State: map[string]any{}, Marks: map[string]*float64{}}
	}
	x := newExchange(c, req)
	defer func() {
		if r := recover(); r != nil {
			x.res.fail(CodeInternal, fmt.Sprintf("internal error: %v", r))
			res = x.result()
		}
	}()
	x.run(ctx)
	return x.result()
}
