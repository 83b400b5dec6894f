package k6http

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/js/modules"
)

// newTransport returns the net/http transport of one VU (the direct
// transport in front of it carries plain HTTP/1.1): it dials through the
// run's network stack (hosts, blockHostnames, blacklistIPs, dns,
// localIPs), counting and stamping each connection (wireConn), applies
// its TLS options, speaks HTTP/2 over TLS when the server offers it, keeps
// idle connections for reuse unless noReuse (noConnectionReuse), and
// leaves compression to the module (k6 sends no Accept-Encoding of its
// own).
func newTransport(nw modules.Network, noReuse bool) *http.Transport {
	return &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         wireDial(nw.Dialer.DialContext),
		TLSClientConfig:     nw.TLS,
		TLSHandshakeTimeout: 10 * time.Second,
		ForceAttemptHTTP2:   true,
		DisableKeepAlives:   noReuse,
		MaxIdleConns:        100,
		MaxIdleConnsPerHost: 100,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		// The limit of the streaming probe's client too.
		MaxResponseHeaderBytes: httpsafe.DefaultMaxHeaderBytes,
	}
}

// dialFunc is the signature of DialContext.
type dialFunc = func(ctx context.Context, network, addr string) (net.Conn, error)

// wireDial wraps dial so that the bytes of its connections are counted
// (data_sent, data_received) and, where the kernel can, stamped (the
// timings). The kernel's receive stamping is on for the process from the
// module's instantiation (newHTTP), so a first connection's first bytes
// are stamped too.
func wireDial(dial dialFunc) dialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return newWireConn(c), nil
	}
}
