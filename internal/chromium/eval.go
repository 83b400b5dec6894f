package chromium

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/runtime"
)

// remoter is an argument passed to the page by reference: a Handle or an
// Element.
type remoter interface{ remoteObject() *runtime.RemoteObject }

func (h *Handle) remoteObject() *runtime.RemoteObject { return h.obj }

// EvaluateJSON calls fn, the source of a JavaScript function, in the page
// with args, awaits the promise it may return and returns its result as
// JSON (nil for undefined). An argument is passed as its JSON, a *Handle
// or an *Element by reference. A page exception is returned as an error
// with its message.
func (p *Page) EvaluateJSON(ctx context.Context, fn string, args ...any) (json.RawMessage, error) {
	obj, err := p.invoke(ctx, fn, args, true)
	if err != nil {
		return nil, err
	}
	return jsonOf(obj), nil
}

// EvaluateExpression evaluates a JavaScript expression in the page, awaits
// the promise it may give and returns its value as JSON (nil for
// undefined).
func (p *Page) EvaluateExpression(ctx context.Context, expr string) (json.RawMessage, error) {
	res, err := call(ctx, p, runtime.Evaluate, runtime.EvaluateParams{
		Expression: expr, AwaitPromise: ptr(true), ReturnByValue: ptr(true),
	})
	obj, err := result(res.Result, res.ExceptionDetails, err)
	if err != nil {
		return nil, err
	}
	return jsonOf(obj), nil
}

// EvaluateHandle is EvaluateJSON returning a handle of the result.
func (p *Page) EvaluateHandle(ctx context.Context, fn string, args ...any) (*Handle, error) {
	obj, err := p.invoke(ctx, fn, args, false)
	if err != nil {
		return nil, err
	}
	return p.handle(obj), nil
}

// invoke calls fn with args in the page: by Runtime.evaluate when every
// argument is JSON, else by Runtime.callFunctionOn on the first handle.
func (p *Page) invoke(ctx context.Context, fn string, args []any, byValue bool) (*runtime.RemoteObject, error) {
	var on *runtime.RemoteObject
	params := make([]*runtime.CallArgument, len(args))
	for i, a := range args {
		if r, ok := a.(remoter); ok {
			obj := r.remoteObject()
			if obj.ObjectID == "" {
				params[i] = &runtime.CallArgument{Value: obj.Value, UnserializableValue: obj.UnserializableValue}
				continue
			}
			if on == nil {
				on = obj
			}
			params[i] = &runtime.CallArgument{ObjectID: obj.ObjectID}
			continue
		}
		j, err := json.Marshal(a)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i, err)
		}
		params[i] = &runtime.CallArgument{Value: jsonv2.Value(j)}
	}
	if on == nil {
		expr, err := callExpression(fn, args)
		if err != nil {
			return nil, err
		}
		res, err := call(ctx, p, runtime.Evaluate, runtime.EvaluateParams{
			Expression: expr, AwaitPromise: ptr(true), ReturnByValue: ptr(byValue),
		})
		return result(res.Result, res.ExceptionDetails, err)
	}
	res, err := call(ctx, p, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn, ObjectID: on.ObjectID, Arguments: params,
		AwaitPromise: ptr(true), ReturnByValue: ptr(byValue),
	})
	return result(res.Result, res.ExceptionDetails, err)
}

// jsonOf returns the JSON of a value returned by value: nil for undefined,
// null for a number JSON cannot hold (NaN, ±Infinity), the digits of a
// BigInt.
func jsonOf(obj *runtime.RemoteObject) json.RawMessage {
	switch {
	case obj == nil || obj.Type == runtime.RemoteObjectTypeUndefined:
		return nil
	case len(obj.Value) > 0:
		return json.RawMessage(obj.Value)
	case obj.UnserializableValue == "-0":
		return json.RawMessage("0")
	case obj.Type == runtime.RemoteObjectTypeBigint:
		s := string(obj.UnserializableValue)
		if _, err := strconv.ParseInt(s[:len(s)-1], 10, 64); err == nil {
			return json.RawMessage(s[:len(s)-1])
		}
	}
	return json.RawMessage("null")
}

// Polling is how often WaitForFunction calls its function: on every
// animation frame ("raf"), at every change of the document ("mutation"),
// or every Interval.
type Polling struct {
	Mode     string
	Interval time.Duration
}

// pollSource calls pred with args until it returns a truthy value, which
// it returns; past the budget it throws the engine's retry error.
const pollSource = `async (pred, args, polling, budget) => {
	const deadline = performance.now() + budget;
	const later = () => new Promise((resolve) => {
		const left = Math.max(0, deadline - performance.now());
		const timer = setTimeout(done, polling === "raf" || polling === "mutation" ? left : Math.min(polling, left));
		let obs;
		function done() { clearTimeout(timer); if (obs) obs.disconnect(); resolve(); }
		if (polling === "raf") requestAnimationFrame(done);
		if (polling === "mutation") {
			obs = new MutationObserver(done);
			obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
		}
	});
	for (;;) {
		const v = await pred(...args);
		if (v) return v;
		if (performance.now() >= deadline) throw new Error("` + retryPrefix + `the function returned a falsy value");
		await later();
	}
}`

// WaitForFunction calls fn, a function's source, with args (JSON) in the
// page as polling says until it returns a truthy value, and returns a
// handle of that value. A navigation restarts it in the new document;
// ctx's end returns a *WaitError.
func (p *Page) WaitForFunction(ctx context.Context, fn string, polling Polling, args ...any) (*Handle, error) {
	mode := any(polling.Mode)
	if polling.Mode == "" {
		mode = max(polling.Interval.Milliseconds(), 1)
	}
	tail, err := json.Marshal([]any{args, mode})
	if err != nil {
		return nil, err
	}
	var reason string
	for {
		expr := fmt.Sprintf("(%s)((%s), ...%s, %d)", pollSource, fn, tail, budget(ctx))
		cctx, cancel := graced(ctx, callGrace)
		res, err := call(cctx, p, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, AwaitPromise: ptr(true)})
		obj, err := result(res.Result, res.ExceptionDetails, err)
		cancel()
		if err == nil {
			return p.handle(obj), nil
		}
		if r, ok := retryReason(err); ok {
			reason = r
		} else if ctx.Err() == nil && !contextGone(err) {
			return nil, err
		} else if ctx.Err() == nil {
			_ = Pause(ctx, 20*time.Millisecond) // the document is being replaced
		}
		if ctx.Err() != nil {
			return nil, &WaitError{Subject: "the function", State: "truthy", Reason: reason, Err: ctx.Err()}
		}
	}
}
