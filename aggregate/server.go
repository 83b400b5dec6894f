package aggregate

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits of the aggregator's HTTP server.
const (
	// DefaultMaxConns is how many connections the server holds at once; it
	// closes the ones beyond at once, so that connections that never send
	// a request cost a bounded memory.
	DefaultMaxConns = 256
	// readHeaderTimeout bounds reading a request's headers; idleTimeout
	// how long a kept-alive connection waits for the next one.
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = time.Minute
	// maxHeaderBytes bounds a request's headers.
	maxHeaderBytes = 16 << 10
)

// Serve takes the runners' posts on ln, in the background, and returns the
// server, for Shutdown. Reading a request's headers takes at most 10 s, a
// whole request Config.ReadTimeout, and at most Config.MaxConns
// connections are held at once.
func (a *Aggregator) Serve(ln net.Listener) *http.Server {
	srv := &http.Server{
		Handler:           a.Handler(),
		ReadHeaderTimeout: min(readHeaderTimeout, a.cfg.ReadTimeout),
		ReadTimeout:       a.cfg.ReadTimeout,
		WriteTimeout:      a.cfg.ReadTimeout + 10*time.Second,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
	capped := &capListener{Listener: ln, held: make(chan struct{}, a.cfg.MaxConns), full: func() {
		a.warnOnce("conns", "more than %d connections at once: the ones beyond are closed", a.cfg.MaxConns)
	}}
	go func() { _ = srv.Serve(capped) }()
	return srv
}

// capListener hands out at most cap(held) connections at once; one beyond
// is closed as soon as it is accepted.
type capListener struct {
	net.Listener
	held chan struct{}
	full func()
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.held <- struct{}{}:
			return &heldConn{Conn: c, release: func() { <-l.held }}, nil
		default:
			c.Close()
			l.full()
		}
	}
}

// heldConn gives its place back once closed.
type heldConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *heldConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
