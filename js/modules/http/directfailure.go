package k6http

import (
	"context"
	"net/http"
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
	if ctx.Err() != nil {
		return &failure{err: context.Cause(ctx), stage: stageCanceled}
	}
	return &failure{err: err, stage: st}
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
