package netstack

import (
	"context"
	"crypto/tls"
)

// TLS is k6's TLS options: insecureSkipTLSVerify, tlsVersion,
// tlsCipherSuites and tlsAuth. The zero value is Go's defaults with
// certificates verified.
type TLS struct {
	// InsecureSkipVerify disables certificate verification.
	InsecureSkipVerify bool
	// MinVersion and MaxVersion bound the versions offered (tls.VersionTLS12
	// …); 0 is Go's default.
	MinVersion, MaxVersion uint16
	// CipherSuites are offered for TLS 1.2 and older; nil is Go's default.
	CipherSuites []uint16
	// ClientCerts are the client certificates of tlsAuth, in order.
	ClientCerts []ClientCert
}

// ClientCert is one tlsAuth entry: a certificate and the host names it is
// presented to ("*.example.com" wildcards allowed; none is every host).
type ClientCert struct {
	Cert    tls.Certificate
	Domains []string
}

// Config returns the TLS configuration of t. A client certificate is
// chosen for the host the handshake's context names (WithServerName): the
// first entry whose domains match it, or that has none.
func (t TLS) Config() *tls.Config {
	c := &tls.Config{ //nolint:gosec // InsecureSkipVerify is opt-in, as in k6
		InsecureSkipVerify: t.InsecureSkipVerify,
		MinVersion:         t.MinVersion,
		MaxVersion:         t.MaxVersion,
		CipherSuites:       t.CipherSuites,
	}
	if len(t.ClientCerts) > 0 {
		c.GetClientCertificate = t.clientCertificate
	}
	return c
}

// clientCertificate chooses the certificate of a handshake; an empty one
// (none sent) when no entry fits.
func (t TLS) clientCertificate(info *tls.CertificateRequestInfo) (*tls.Certificate, error) {
	host, _ := info.Context().Value(serverNameKey{}).(string)
	for i := range t.ClientCerts {
		e := &t.ClientCerts[i]
		if len(e.Domains) == 0 || MatchAny(e.Domains, host) {
			return &e.Cert, nil
		}
	}
	return &tls.Certificate{}, nil
}

// serverNameKey is the context key of the host a request is sent to.
type serverNameKey struct{}

// WithServerName returns ctx naming the host a request goes to, for the
// choice of its client certificate: the clients put it in the context of
// each request (net/http hands it to the TLS handshake).
func WithServerName(ctx context.Context, host string) context.Context {
	return context.WithValue(ctx, serverNameKey{}, host)
}
