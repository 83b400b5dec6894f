package wsconn

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/internal/netstack"
)

// DefaultMaxMessageSize is the largest message a connection accepts when
// Config.MaxMessageSize is zero: 64 MiB, the size k6/http reads of a body.
// A larger message ends the connection with close code 1009.
const DefaultMaxMessageSize = 64 << 20

// DefaultHandshakeTimeout bounds the opening handshake (dial, TLS, the
// HTTP upgrade) when Config.HandshakeTimeout is zero: 60 s, k6/http's
// default request timeout.
const DefaultHandshakeTimeout = 60 * time.Second

// DefaultCloseTimeout is how long a connection waits for the server's
// close frame after sending its own, when Config.CloseTimeout is zero:
// 5 s. Past it, the connection is cut and the close is not clean.
const DefaultCloseTimeout = 5 * time.Second

// controlWait bounds the write of a control frame (ping, pong, close).
const controlWait = 10 * time.Second

// ErrMessageTooLarge is the failure of a connection whose server sent a
// message above the limit.
var ErrMessageTooLarge = errors.New("message too large")

// Config is what Dial applies.
type Config struct {
	// Dial dials the TCP connection; nil dials with a net.Dialer. The
	// modules pass the VU's netstack dialer.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// TLS is the configuration of wss:// connections; nil is Go's
	// defaults. It is cloned, and only HTTP/1.1 is offered.
	TLS *tls.Config
	// Header is sent with the upgrade request (User-Agent, cookies, …).
	Header http.Header
	// Protocols are offered in Sec-WebSocket-Protocol.
	Protocols []string
	// Jar, when not nil, gives the cookies of the upgrade request and
	// keeps those its response sets.
	Jar http.CookieJar
	// Compression offers permessage-deflate.
	Compression bool
	// HandshakeTimeout defaults to DefaultHandshakeTimeout.
	HandshakeTimeout time.Duration
	// MaxMessageSize, in bytes, defaults to DefaultMaxMessageSize.
	MaxMessageSize int64
	// MaxHeaderSize bounds the status line and headers of the handshake's
	// response, in bytes; it defaults to httpsafe.DefaultMaxHeaderBytes
	// (10 MiB, the probe's maxHeaderSize). A larger head fails the
	// handshake with a *httpsafe.LimitError.
	MaxHeaderSize int
	// CloseTimeout defaults to DefaultCloseTimeout.
	CloseTimeout time.Duration
}

// Handshake is the server's answer to the upgrade request: its status,
// headers and, for a refused upgrade, the first KiB of its body.
type Handshake struct {
	Status int
	Header http.Header
	Body   string
	// Protocol is the subprotocol the server chose ("" for none).
	Protocol string
	// Extensions is the server's Sec-WebSocket-Extensions.
	Extensions string
}

// Dial opens a WebSocket connection to rawURL (ws:// or wss://). The
// handshake is nil when no HTTP response came back (the dial or TLS
// failed); otherwise it is returned with the error of a refused upgrade
// too. ctx bounds the handshake only; the connection then lives until it
// is closed. started is when the dial began (for ws_connecting and the
// session's duration).
func Dial(ctx context.Context, rawURL string, cfg Config) (*Conn, *Handshake, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, nil, err
	}
	c := &Conn{started: time.Now(), cfg: cfg.withDefaults(), pings: map[string]time.Time{}}
	c.head = newHeadBudget(c.cfg.MaxHeaderSize)
	d := c.dialer(u.Hostname())
	ws, resp, err := d.DialContext(ctx, rawURL, cfg.Header)
	c.connected = time.Now()
	c.head.off.Store(true)
	if lim := c.head.check(resp); lim != nil {
		if ws != nil {
			ws.Close()
		}
		return nil, nil, fmt.Errorf("websocket: handshake: %w", lim)
	}
	hs := handshakeOf(resp)
	if err != nil {
		if errors.Is(err, websocket.ErrBadHandshake) && hs != nil {
			err = fmt.Errorf("websocket: bad handshake: the server answered %d, not 101 Switching Protocols", hs.Status)
		}
		return nil, hs, err
	}
	c.ws = ws
	c.start()
	return c, hs, nil
}

// withDefaults fills the zero values.
func (cfg Config) withDefaults() Config {
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if cfg.MaxMessageSize <= 0 {
		cfg.MaxMessageSize = DefaultMaxMessageSize
	}
	if cfg.CloseTimeout <= 0 {
		cfg.CloseTimeout = DefaultCloseTimeout
	}
	if cfg.MaxHeaderSize <= 0 {
		cfg.MaxHeaderSize = httpsafe.DefaultMaxHeaderBytes
	}
	return cfg
}

// dialer is gorilla's dialer over cfg.Dial, counting the bytes of the
// connection and naming host in the dial's context (the choice of a
// tlsAuth client certificate).
func (c *Conn) dialer(host string) *websocket.Dialer {
	dial := c.cfg.Dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	var tlsCfg *tls.Config
	if c.cfg.TLS != nil {
		tlsCfg = c.cfg.TLS.Clone()
		tlsCfg.NextProtos = []string{"http/1.1"}
	}
	return &websocket.Dialer{
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := dial(netstack.WithServerName(ctx, host), network, addr)
			if err != nil {
				return nil, err
			}
			return &countingConn{Conn: conn, sent: &c.sent, received: &c.received, head: c.head}, nil
		},
		Proxy:             http.ProxyFromEnvironment,
		TLSClientConfig:   tlsCfg,
		HandshakeTimeout:  c.cfg.HandshakeTimeout,
		Subprotocols:      c.cfg.Protocols,
		EnableCompression: c.cfg.Compression,
		Jar:               c.cfg.Jar,
	}
}

// handshakeOf reads the server's answer; nil without one.
func handshakeOf(resp *http.Response) *Handshake {
	if resp == nil {
		return nil
	}
	hs := &Handshake{
		Status: resp.StatusCode, Header: resp.Header,
		Protocol: resp.Header.Get("Sec-WebSocket-Protocol"), Extensions: resp.Header.Get("Sec-WebSocket-Extensions"),
	}
	if resp.Body != nil && resp.StatusCode != http.StatusSwitchingProtocols {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		hs.Body = string(b)
	}
	return hs
}

// counters are the byte counts of a connection.
type counters struct {
	sent, received atomic.Int64
}
