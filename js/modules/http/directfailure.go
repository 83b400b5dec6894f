package k6http

import (
	"context"
	"errors"
	"net/http"
	"os"
	"time"
)

// stage is how far an exchange got before it failed.
type stage int

// The stages at which an exchange fails.
const (
	// stageUnwritten: no byte of the request was written.
	stageUnwritten stage = iota
	// stageUnanswered: the request was written, no byte of a response
	// arrived.
	stageUnanswered
	// stageBroken: the connection failed later, or the response was
	// malformed.
	stageBroken
	// stageCanceled: the request's context ended the exchange.
	stageCanceled
)

// failure is a failed exchange: the error RoundTrip returns, and the stage
// it failed at, which decides whether it is retried.
type failure struct {
	err   error
	stage stage
}

// newFailure returns the failure of err at st, or, when the request's
// context ended (which interrupted the connection), its cause, as
// net/http reports a canceled request.
func newFailure(ctx context.Context, err error, st stage) *failure {
	if ended(ctx, err) {
		return &failure{err: context.Cause(ctx), stage: stageCanceled}
	}
	return &failure{err: err, stage: st}
}

// ended reports whether the request's context ctx ended, which made the
// connection fail with err. A connection's only deadlines are the
// context's (directConn.setDeadline) and the past one of an interruption,
// which its cancellation fires (interruptOf): when err is a deadline's
// and the deadline passed or the cancellation began, the context's end
// is under way, and ended waits for it, so that its cause is reported.
func ended(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return true
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		return false
	}
	d, ok := ctx.Deadline()
	if (ok && !time.Now().Before(d)) || interruptOf(ctx).Err() != nil {
		<-ctx.Done()
		return true
	}
	return false
}

// interruptKey is the context key of the context whose cancellation
// interrupts a request's exchanges.
type interruptKey struct{}

// withInterrupt returns ctx, a request's context derived from parent with
// the request's deadline, naming parent as the context whose cancellation
// interrupts the request's exchanges (interruptOf): the deadline is the
// connection's own, so an exchange waits on parent, a context that
// already has its list of children, rather than on ctx, which would make
// one for it.
func withInterrupt(ctx, parent context.Context) context.Context {
	return context.WithValue(ctx, interruptKey{}, parent)
}

// interruptOf returns the context whose cancellation interrupts the
// exchanges of a request sent with ctx: the one withInterrupt named, else
// ctx itself.
func interruptOf(ctx context.Context) context.Context {
	if parent, ok := ctx.Value(interruptKey{}).(context.Context); ok {
		return parent
	}
	return ctx
}

// retryable reports whether a request that failed on a reused connection
// is sent again on another, by net/http's rules: when nothing of it was
// written and its body can be sent again, or when the server answered
// nothing and the request is replayable (idempotent, its body
// replayable).
func (f *failure) retryable(req *http.Request) bool {
	switch f.stage {
	case stageUnwritten:
		return noBody(req) || req.GetBody != nil
	case stageUnanswered:
		return replayable(req)
	}
	return false
}

// noBody reports whether req has no body.
func noBody(req *http.Request) bool {
	return req.Body == nil || req.Body == http.NoBody
}

// replayable reports whether req may be sent twice (net/http's
// Request.isReplayable): its body can be sent again, and its method is
// idempotent or it carries an idempotency key.
func replayable(req *http.Request) bool {
	if !noBody(req) && req.GetBody == nil {
		return false
	}
	switch req.Method {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	_, key := req.Header["Idempotency-Key"]
	_, xkey := req.Header["X-Idempotency-Key"]
	return key || xkey
}
