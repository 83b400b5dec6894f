package chromium

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/runtime"
)

// engineSource is the in-page engine: selectors, element states and the
// DOM side of the actions (see engine.js).
//
//go:embed engine.js
var engineSource string

// retryPrefix starts the message of the engine's error for a wait that
// outlived its budget (engine.js's RETRY).
const retryPrefix = "k6browser:retry:"

// sliceBudget bounds one in-page wait: the engine returns at least this
// often with the reason the elements are not ready, so that a timeout
// can name it.
const sliceBudget = time.Second

// callGrace is how long an in-page wait may overrun the caller's deadline
// before Go stops waiting for it (the page's clock starts a little later).
const callGrace = 500 * time.Millisecond

// request is one call of the engine.
type request struct {
	// Op is what to do: "element", "elements", "count", "point", "focus",
	// "blur", "fill", "select", "dispatch", "scroll", "read", "visible".
	Op string `json:"op"`
	// State is what to wait for first: "none", "attached", "detached",
	// "visible", "hidden", "enabled", "editable", "actionable".
	State string `json:"state"`
	// Steps select the elements of a locator; empty for a handle.
	Steps []Step `json:"steps,omitempty"`
	// Strict makes several matches an error.
	Strict bool `json:"strict,omitempty"`
	// Name is the selector, for the engine's errors.
	Name string `json:"name,omitempty"`
	// Arg is the operation's argument.
	Arg any `json:"arg,omitempty"`
	// Budget is how long the engine waits in one call, in ms.
	Budget int64 `json:"budget"`
}

// WaitError is a wait that ran out of time: what was awaited of which
// elements and why the last attempt failed.
type WaitError struct {
	// Subject is the selector, or "element" for a handle.
	Subject string
	// State is what was awaited, e.g. "visible, enabled and stable".
	State string
	// Reason is why the elements were not ready, when known.
	Reason string
	// Err is the error of the caller's context.
	Err error
}

func (e *WaitError) Error() string {
	s := fmt.Sprintf("waiting for %s to be %s", e.Subject, e.State)
	if e.Reason != "" {
		s += " (" + e.Reason + ")"
	}
	return s + ": " + e.Err.Error()
}

func (e *WaitError) Unwrap() error { return e.Err }

// stateWords describes an engine state in a WaitError.
var stateWords = map[string]string{
	"attached": "attached", "detached": "detached", "visible": "visible", "hidden": "hidden",
	"enabled": "visible and enabled", "editable": "visible, enabled and editable",
	"actionable": "visible, enabled and stable, and to receive pointer events",
}

// retryReason returns the reason of the engine's retry error, if err is one.
func retryReason(err error) (string, bool) {
	msg := err.Error()
	i := strings.Index(msg, retryPrefix)
	if i < 0 {
		return "", false
	}
	reason := msg[i+len(retryPrefix):]
	if j := strings.IndexByte(reason, '\n'); j >= 0 {
		reason = reason[:j]
	}
	return reason, true
}

// subject is what the engine runs on: a locator's selector, on the page,
// or an element handle.
type subject interface {
	page() *Page
	// prepare completes a request with the subject's elements.
	prepare(req *request)
	// remote returns the handle's object, or nil for a selector.
	remote() *runtime.RemoteObject
	// name describes the subject in errors.
	name() string
}

// runEngine runs req on s until it succeeds or fails for good: a wait that
// outlived its budget, or a document that a navigation replaced, is run
// again until ctx ends, which returns a *WaitError. byValue returns the
// result as JSON, else as a remote object (an element).
func runEngine(ctx context.Context, s subject, req request, byValue bool) (*runtime.RemoteObject, error) {
	s.prepare(&req)
	var reason string
	for {
		req.Budget = budget(ctx)
		obj, err := callEngine(ctx, s, req, byValue)
		if err == nil {
			return obj, nil
		}
		if r, ok := retryReason(err); ok {
			reason = r
		} else if ctx.Err() == nil && (!contextGone(err) || s.remote() != nil) {
			return nil, err
		} else if ctx.Err() == nil {
			// The document is being replaced: give the new one a moment.
			select {
			case <-s.page().st.events.changes():
			case <-time.After(20 * time.Millisecond):
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			return nil, &WaitError{Subject: s.name(), State: stateWords[req.State], Reason: reason, Err: ctx.Err()}
		}
	}
}

// budget returns how long one in-page wait may last: the time left before
// ctx's deadline, at most sliceBudget.
func budget(ctx context.Context) int64 {
	d := sliceBudget
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(dl))
	}
	return max(int64(d/time.Millisecond), 0)
}

// callEngine makes one call of the engine.
func callEngine(ctx context.Context, s subject, req request, byValue bool) (*runtime.RemoteObject, error) {
	arg, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	ctx, cancel := graced(ctx, callGrace)
	defer cancel()
	p := s.page()
	if obj := s.remote(); obj != nil {
		res, err := call(ctx, p, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
			FunctionDeclaration: "function (req) { return (\n" + engineSource + "\n)(req, this); }",
			ObjectID:            obj.ObjectID,
			Arguments:           []*runtime.CallArgument{{Value: jsonv2.Value(arg)}},
			AwaitPromise:        ptr(true), ReturnByValue: ptr(byValue),
		})
		return result(res.Result, res.ExceptionDetails, err)
	}
	res, err := call(ctx, p, runtime.Evaluate, runtime.EvaluateParams{
		Expression:   "(\n" + engineSource + "\n)(" + string(arg) + ")",
		AwaitPromise: ptr(true), ReturnByValue: ptr(byValue),
	})
	return result(res.Result, res.ExceptionDetails, err)
}

// result returns a call's value, or its exception as an error.
func result(obj *runtime.RemoteObject, exc *runtime.ExceptionDetails, err error) (*runtime.RemoteObject, error) {
	switch {
	case err != nil:
		return nil, err
	case exc != nil:
		return nil, errors.New(exceptionText(exc))
	case obj == nil:
		return &runtime.RemoteObject{Type: runtime.RemoteObjectTypeUndefined}, nil
	}
	return obj, nil
}

// graced returns a context that ends grace after ctx's deadline, or at
// once when ctx is canceled for another reason (the iteration stopped).
func graced(ctx context.Context, grace time.Duration) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	out, cancel := context.WithDeadline(context.WithoutCancel(ctx), dl.Add(grace))
	stop := context.AfterFunc(ctx, func() {
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			cancel()
		}
	})
	return out, func() { stop(); cancel() }
}

// decode unmarshals the JSON value of obj into out.
func decode(obj *runtime.RemoteObject, out any) error {
	if obj == nil || len(obj.Value) == 0 {
		return nil
	}
	return json.Unmarshal([]byte(obj.Value), out)
}

func ptr[T any](v T) *T { return &v }
