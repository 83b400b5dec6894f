package sse

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/internal/netstack"
)

// The error codes of Result.ErrorCode. Each request ends in exactly one
// outcome; the table in the package documentation describes each code.
const (
	CodeInvalidRequest = "invalid_request"
	CodeConnect        = "connect_error"
	CodeBlockedHost    = "blocked_host"
	CodeBlockedIP      = "blocked_ip"
	CodeTLS            = "tls_error"
	CodeHTTPStatus     = "http_status"
	CodeContentType    = "content_type"
	CodeTimeout        = "timeout"
	CodeIdleTimeout    = "idle_timeout"
	CodeReset          = "reset"
	CodeProtocol       = "protocol_error"
	CodeEventTooLarge  = "event_too_large"
	CodeTooLarge       = "response_too_large"
	CodeRedirect       = "redirect_error"
	CodeStreamError    = "stream_error"
	CodeCallback       = "callback_error"
	CodeCanceled       = "canceled"
	CodeInternal       = "internal_error"
)

// Sentinel errors of the package.
var (
	// ErrInvalidPredicate wraps every error ParsePredicate returns.
	ErrInvalidPredicate = errors.New("usefulsse: invalid predicate")
	// ErrInvalidRequest wraps errors about a request's settings.
	ErrInvalidRequest = errors.New("usefulsse: invalid request")
	// ErrStop, returned by Request.OnOpen or Request.OnEvent, ends the
	// stream without failure: the client closed it (xk6-sse's
	// client.close()). The event in hand is still applied; complete is
	// reached only if that event was terminal.
	ErrStop = errors.New("usefulsse: stream closed by the client")

	errTimeout     = errors.New("timeout")
	errIdleTimeout = errors.New("idle timeout")
	errDone        = errors.New("stream finished")
)

// CallbackError is the error of a user callback (Request.OnEvent or a
// FuncPredicate) that ended a request.
type CallbackError struct {
	// Name names the callback: "onOpen", "onEvent", "useful" or
	// "marks.<name>".
	Name string
	// Err is what the callback returned (or the value it panicked with).
	Err error
}

// Error returns "<name> callback failed: <err>".
func (e *CallbackError) Error() string { return e.Name + " callback failed: " + e.Err.Error() }

// Unwrap returns the callback's error.
func (e *CallbackError) Unwrap() error { return e.Err }

// callSafely runs fn, turning an error or a panic into a *CallbackError
// named name.
func callSafely[T any](name string, fn func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &CallbackError{Name: name, Err: fmt.Errorf("panic: %v", r)}
		}
	}()
	v, err = fn()
	if err != nil {
		err = &CallbackError{Name: name, Err: err}
	}
	return v, err
}

// contextCode maps the cause of a canceled request context to an error code:
// the request's own deadlines give timeout / idle_timeout, anything else
// (the caller's context ended: the iteration was interrupted) gives canceled.
func contextCode(ctx context.Context) (code, msg string, ok bool) {
	if ctx.Err() == nil {
		return "", "", false
	}
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errTimeout):
		return CodeTimeout, "request timeout exceeded", true
	case errors.Is(cause, errIdleTimeout):
		return CodeIdleTimeout, "idle timeout exceeded: no byte received", true
	case errors.Is(cause, errDone):
		return "", "", false
	default:
		return CodeCanceled, "request canceled: " + cause.Error(), true
	}
}

// transportCode classifies an error of http.Client.Do (no response yet).
func transportCode(err error) string {
	var (
		dnsErr  *net.DNSError
		opErr   *net.OpError
		recErr  tls.RecordHeaderError
		alert   tls.AlertError
		verify  *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
	)
	switch {
	case errors.Is(err, netstack.ErrBlockedHost):
		return CodeBlockedHost
	case errors.Is(err, netstack.ErrBlacklistedIP):
		return CodeBlockedIP
	case errors.Is(err, httpsafe.ErrTooLarge), strings.Contains(err.Error(), "server response headers exceeded"):
		return CodeTooLarge
	case errors.As(err, &verify), errors.As(err, &unknown), errors.As(err, &host),
		errors.As(err, &invalid), errors.As(err, &recErr), errors.As(err, &alert),
		strings.Contains(err.Error(), "tls: "):
		return CodeTLS
	case errors.As(err, &dnsErr):
		return CodeConnect
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return CodeConnect
	case isReset(err):
		return CodeReset
	}
	return CodeProtocol
}

// isReset reports whether err says the peer closed or reset the connection.
func isReset(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, net.ErrClosed)
}

// innerMessage drops the `Method "url": ` prefix of a *url.Error, since the
// result carries the URL already.
func innerMessage(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}
