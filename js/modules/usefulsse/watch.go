package usefulsse

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
	k6browser "github.com/usefullatency/usefullatency/js/modules/browser"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/sse"
	"github.com/usefullatency/usefullatency/uiprobe"
)

// watchKeys are the params usefulsse.watch accepts; others are an error.
var watchKeys = map[string]bool{
	"useful": true, "done": true, "quiet": true, "timeout": true, "tags": true, "action": true,
	"actionAt": true, "state": true, "stateAttribute": true,
}

// errNotPage is the error of a watch whose first argument is no page.
var errNotPage = errors.New("usefulsse.watch: the first argument must be a k6/browser page")

// watchCall is a prepared watch: the page, what to measure, the action
// that causes the answer and the tags of its samples.
type watchCall struct {
	page     *chromium.Page
	selector string
	spec     uiprobe.Spec
	action   sobek.Callable // nil: the script acts by itself
	tags     metrics.Tags
	meta     metrics.Tags
}

// watch measures an answer on a page, as the user sees it: it installs the
// UI probe's recorder on the element selector matches, calls
// params.action, waits until the answer ended and resolves with the
// result; the samples (layer ui) are pushed first. A bad argument rejects
// the promise; a failure of the page or of the action is the result's
// error_code.
func (p *Probe) watch(page sobek.Value, selector string, params sobek.Value) *sobek.Promise {
	promise, resolve, reject := p.vu.Runtime().NewPromise()
	c, err := p.prepareWatch(page, selector, params)
	if err != nil {
		_ = reject(err)
		return promise
	}
	settle := func(res uiprobe.Result) error {
		p.recordUI(c, &res)
		return resolve(uiResultValue(p.vu.Runtime(), &res))
	}
	started := p.vu.RegisterCallback()
	ctx := p.vu.Context()
	go func() {
		w, err := uiprobe.Start(ctx, c.page, c.selector, c.spec)
		started(func() error {
			if err != nil {
				return reject(fmt.Errorf("usefulsse.watch: %w", err))
			}
			p.act(c, w, settle)
			return nil
		})
	}()
	return promise
}

// prepareWatch checks the arguments and builds the watch.
func (p *Probe) prepareWatch(page sobek.Value, selector string, params sobek.Value) (*watchCall, error) {
	if p.vu.InInit() {
		return nil, errInit
	}
	pg, ok := k6browser.PageOf(page)
	if !ok {
		return nil, errNotPage
	}
	st := p.vu.State()
	c := &watchCall{page: pg, selector: selector, tags: st.Tags, meta: st.Metadata}
	if obj := object(p.vu.Runtime(), params); obj != nil {
		if err := p.applyWatchParams(obj, c); err != nil {
			return nil, err
		}
	}
	if err := c.spec.Validate(selector); err != nil {
		return nil, fmt.Errorf("usefulsse.watch: %w", err)
	}
	return c, nil
}

// applyWatchParams reads every param of obj into c.
func (p *Probe) applyWatchParams(obj *sobek.Object, c *watchCall) error {
	for _, key := range obj.Keys() {
		if !watchKeys[key] {
			return fmt.Errorf("usefulsse.watch: unknown param %q", key)
		}
		v := obj.Get(key)
		if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
			continue
		}
		if err := p.applyWatchParam(key, v, c); err != nil {
			return fmt.Errorf("usefulsse.watch: params.%s: %w", key, err)
		}
	}
	return nil
}

// applyWatchParam reads one param. A function predicate runs on the VU's
// event loop, while the watch waits off it.
func (p *Probe) applyWatchParam(key string, v sobek.Value, c *watchCall) (err error) {
	rt := p.vu.Runtime()
	switch key {
	case "useful":
		c.spec.Useful, err = sse.ParsePredicate(predicateSpec(rt, v, "useful", onLoop(p.vu, p.vu.Context())))
	case "done":
		c.spec.Done = v.String()
	case "state":
		c.spec.State = v.String()
	case "stateAttribute":
		c.spec.StateAttribute = v.String()
	case "quiet":
		c.spec.Quiet, err = duration(v)
	case "timeout":
		c.spec.Timeout, err = duration(v)
	case "actionAt":
		c.spec.ActionAt, err = instant(v)
	case "tags":
		for k, val := range stringMap(rt, v) {
			c.tags = c.tags.With(k, val)
		}
	case "action":
		fn, ok := sobek.AssertFunction(v)
		if !ok {
			return fmt.Errorf("want a function, got %s", v.String())
		}
		c.action = fn
	}
	return err
}

// instant reads a Date or a number of Unix milliseconds.
func instant(v sobek.Value) (time.Time, error) {
	if t, ok := v.Export().(time.Time); ok {
		return t, nil
	}
	ms := v.ToFloat()
	if math.IsNaN(ms) || math.IsInf(ms, 0) || ms <= 0 {
		return time.Time{}, fmt.Errorf("want a Date or Unix milliseconds, got %s", v.String())
	}
	return time.UnixMicro(int64(math.Round(ms * 1000))), nil
}

// act calls the watch's action on the VU's event loop, then waits for the
// answer once the action (and the promise it returned, if any) settled.
func (p *Probe) act(c *watchCall, w *uiprobe.Watch, settle func(uiprobe.Result) error) {
	if c.action == nil {
		p.await(w, nil, settle)
		return
	}
	v, err := c.action(sobek.Undefined())
	if err != nil {
		p.await(w, err, settle)
		return
	}
	then := thenOf(v)
	if then == nil {
		p.await(w, nil, settle)
		return
	}
	next := p.vu.RegisterCallback()
	once := false
	after := func(failure error) {
		if !once {
			once = true
			next(func() error { p.await(w, failure, settle); return nil })
		}
	}
	rt := p.vu.Runtime()
	ok := rt.ToValue(func(sobek.FunctionCall) sobek.Value { after(nil); return sobek.Undefined() })
	bad := rt.ToValue(func(call sobek.FunctionCall) sobek.Value {
		after(fmt.Errorf("%s", call.Argument(0).String()))
		return sobek.Undefined()
	})
	if _, err := then(v, ok, bad); err != nil {
		after(err)
	}
}

// thenOf returns the then method of a promise (or any thenable) v, nil
// when v is none.
func thenOf(v sobek.Value) sobek.Callable {
	obj, ok := v.(*sobek.Object)
	if !ok {
		return nil
	}
	then, _ := sobek.AssertFunction(obj.Get("then"))
	return then
}

// await waits off the event loop until the answer ended, then settles the
// watch on the loop. A failed action stops the recorder and is the
// result's error.
func (p *Probe) await(w *uiprobe.Watch, failure error, settle func(uiprobe.Result) error) {
	done := p.vu.RegisterCallback()
	ctx := p.vu.Context()
	go func() {
		if failure != nil {
			_ = w.Stop(ctx)
		}
		res, _ := w.Wait(ctx)
		if failure != nil {
			res.ErrorCode, res.Error = uiprobe.CodeAction, "the action failed: "+failure.Error()
		}
		done(func() error { return settle(res) })
	}()
}
