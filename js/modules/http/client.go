package k6http

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"time"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/options"
)

// clientOptions configure a VU's transport: k6's TLS, DNS and connection
// options.
type clientOptions struct {
	// InsecureSkipTLSVerify disables certificate verification (the
	// insecureSkipTLSVerify option).
	InsecureSkipTLSVerify bool
	// NoConnectionReuse closes each connection after its request.
	NoConnectionReuse bool
	// Hosts maps host names, or host:port, to other addresses (hosts).
	Hosts map[string]string
	// BlockHostnames are host names, "*.example.com" wildcards allowed,
	// that are never dialed (blockHostnames).
	BlockHostnames []string
	// BlacklistIPs are the CIDR ranges never dialed (blacklistIPs).
	BlacklistIPs []string
	// TLSVersion bounds the TLS versions offered (tlsVersion).
	TLSVersion *tlsVersions
	// TLSCipherSuites are the cipher suites offered for TLS 1.2 and older
	// (tlsCipherSuites).
	TLSCipherSuites []string
	// TLSAuth are the client certificates (tlsAuth).
	TLSAuth []tlsAuth
}

// newTransport returns the transport of one VU: it dials through the
// hosts, blockHostnames and blacklistIPs options counting connections,
// speaks HTTP/2 over TLS when the server offers it, keeps idle
// connections for reuse unless noConnectionReuse is set, and leaves
// compression to the module (k6 sends no Accept-Encoding of its own).
func newTransport(opts clientOptions) *http.Transport {
	d := newDialer(&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}, opts)
	return &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         d.DialContext,
		TLSClientConfig:     tlsConfig(opts),
		TLSHandshakeTimeout: 10 * time.Second,
		ForceAttemptHTTP2:   true,
		DisableKeepAlives:   opts.NoConnectionReuse,
		MaxIdleConns:        100,
		MaxIdleConnsPerHost: 100,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		// The limit of the streaming probe's client too.
		MaxResponseHeaderBytes: httpsafe.DefaultMaxHeaderBytes,
	}
}

// tlsConfig returns the TLS configuration of the options; they were
// validated by the options package, so names that do not resolve are
// skipped.
func tlsConfig(opts clientOptions) *tls.Config {
	c := &tls.Config{InsecureSkipVerify: opts.InsecureSkipTLSVerify} //nolint:gosec // opt-in, as in k6
	if v := opts.TLSVersion; v != nil {
		c.MinVersion, _ = options.TLSVersionID(v.Min)
		c.MaxVersion, _ = options.TLSVersionID(v.Max)
	}
	for _, name := range opts.TLSCipherSuites {
		if id, err := options.CipherSuiteID(name); err == nil {
			c.CipherSuites = append(c.CipherSuites, id)
		}
	}
	if len(opts.TLSAuth) > 0 {
		c.GetClientCertificate = clientCertificates(opts.TLSAuth)
	}
	return c
}

// hostKey is the context key of the host name a request is sent to, for
// the choice of its client certificate.
type hostKey struct{}

// withHost returns ctx carrying the host name of the request.
func withHost(ctx context.Context, host string) context.Context {
	return context.WithValue(ctx, hostKey{}, host)
}

// clientCertificates returns the certificate chooser of tlsAuth: the
// first entry whose domains match the request's host, or that has no
// domains; none when no entry fits.
func clientCertificates(auth []tlsAuth) func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	type entry struct {
		cert    tls.Certificate
		domains []string
	}
	var entries []entry
	for _, a := range auth {
		if cert, err := tls.X509KeyPair([]byte(a.Cert), []byte(a.Key)); err == nil {
			entries = append(entries, entry{cert, a.Domains})
		}
	}
	return func(info *tls.CertificateRequestInfo) (*tls.Certificate, error) {
		host, _ := info.Context().Value(hostKey{}).(string)
		for _, e := range entries {
			if len(e.domains) == 0 || matchAny(e.domains, host) {
				return &e.cert, nil
			}
		}
		return &tls.Certificate{}, nil
	}
}
