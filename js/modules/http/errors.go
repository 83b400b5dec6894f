package k6http

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strconv"
	"syscall"

	"github.com/usefullatency/usefullatency/internal/netstack"
)

// k6's error codes (its "Error codes" page); HTTP statuses of 400 and above
// are 1000 + the status.
const (
	codeGeneric          = 1000
	codeTimeout          = 1050
	codeDNS              = 1100
	codeNoSuchHost       = 1101
	codeBlacklistedIP    = 1110
	codeBlockedHost      = 1111
	codeTCP              = 1200
	codeBrokenPipe       = 1201
	codeDial             = 1210
	codeDialTimeout      = 1211
	codeRefused          = 1212
	codeReset            = 1220
	codeTLS              = 1300
	codeUnknownAuthority = 1310
	codeHostname         = 1311
	codeDecompression    = 1701
)

// errRequestTimeout is the cause of a request context that ran out of its
// timeout param.
var errRequestTimeout = errors.New("request timeout")

// classify returns k6's error code and message for an error of a request
// sent with ctx.
func classify(ctx context.Context, err error) (int, string) {
	if errors.Is(context.Cause(ctx), errRequestTimeout) {
		return codeTimeout, "request timeout"
	}
	switch {
	case errors.Is(err, netstack.ErrBlockedHost):
		return codeBlockedHost, netstack.ErrBlockedHost.Error()
	case errors.Is(err, netstack.ErrBlacklistedIP):
		return codeBlacklistedIP, netstack.ErrBlacklistedIP.Error()
	}
	if code := http2Code(err); code != 0 {
		return code, err.Error()
	}
	// TLS first: a handshake failure comes wrapped in the read's
	// net.OpError.
	if code := tlsCode(err); code != 0 {
		return code, err.Error()
	}
	if code := netCode(err); code != 0 {
		return code, err.Error()
	}
	return codeGeneric, err.Error()
}

// netCode maps DNS, dial and TCP errors; 0 when err is none of them.
func netCode(err error) int {
	var (
		dnsErr *net.DNSError
		opErr  *net.OpError
	)
	switch {
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return codeNoSuchHost
		}
		return codeDNS
	case errors.Is(err, syscall.ECONNREFUSED):
		return codeRefused
	case errors.Is(err, syscall.ECONNRESET):
		return codeReset
	case errors.Is(err, syscall.EPIPE):
		return codeBrokenPipe
	case errors.As(err, &opErr) && opErr.Op == "dial":
		if opErr.Timeout() {
			return codeDialTimeout
		}
		return codeDial
	case errors.As(err, &opErr):
		return codeTCP
	}
	return 0
}

// tlsCode maps certificate and handshake errors; 0 when err is neither.
func tlsCode(err error) int {
	var (
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		verify  *tls.CertificateVerificationError
		alert   tls.AlertError
		record  tls.RecordHeaderError
	)
	switch {
	case errors.As(err, &unknown):
		return codeUnknownAuthority
	case errors.As(err, &host):
		return codeHostname
	case errors.As(err, &verify), errors.As(err, &alert), errors.As(err, &record):
		return codeTLS
	}
	// An alert the server sent: crypto/tls reports it as a net.OpError of
	// op "remote error".
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "remote error" {
		return codeTLS
	}
	return 0
}

// statusCode returns k6's error code of an HTTP status: 1000 + the status
// for 4xx and 5xx, 0 otherwise.
func statusCode(status int) int {
	if status >= 400 {
		return 1000 + status
	}
	return 0
}

// codeTag is the error_code tag of a code, "" for none.
func codeTag(code int) string {
	if code == 0 {
		return ""
	}
	return strconv.Itoa(code)
}
