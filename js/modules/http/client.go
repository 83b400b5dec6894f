package k6http

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"time"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
)

// clientOptions configure a VU's transport.
type clientOptions struct {
	// InsecureSkipTLSVerify disables certificate verification (the
	// insecureSkipTLSVerify option).
	InsecureSkipTLSVerify bool
}

// newTransport returns the transport of one VU: it dials counting
// connections, speaks HTTP/2 over TLS when the server offers it, keeps idle
// connections for reuse, and leaves compression to the script (k6 sends no
// Accept-Encoding of its own).
func newTransport(opts clientOptions) *http.Transport {
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy: http.ProxyFromEnvironment,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &countingConn{Conn: c}, nil
		},
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: opts.InsecureSkipTLSVerify}, //nolint:gosec // opt-in, as in k6
		TLSHandshakeTimeout: 10 * time.Second,
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        100,
		MaxIdleConnsPerHost: 100,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		// The limit of the streaming probe's client too.
		MaxResponseHeaderBytes: httpsafe.DefaultMaxHeaderBytes,
	}
}
