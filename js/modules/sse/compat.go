package xk6sse

import (
	"errors"
	"maps"
	"net/http"
	"strings"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/js/modules/usefulsse"
	"github.com/usefullatency/usefullatency/sse"
)

// compat is the k6/x/sse module of one VU: the API of the community xk6-sse
// extension — sse.open(url, params, (client) => {…}) with client.on('open'
// | 'event' | 'error', fn) and client.close() — measured by the same probe,
// so scripts written for it run unchanged and get the usefulsse metrics.
type compat struct {
	vu      modules.VU
	probe   *usefulsse.Probe
	metrics *compatMetrics
}

var _ modules.Instance = (*compat)(nil)

// newCompat instantiates the module in vu, with a usefulsse probe of its own.
func newCompat(vu modules.VU) modules.Instance {
	c := &compat{vu: vu, probe: usefulsse.NewProbe(vu)}
	c.probe.OmitHTTPMetrics() // pushed by record, as xk6-sse pushes them
	if run := vu.State().Run; run != nil {
		c.metrics = registerCompatMetrics(run.Registry)
	}
	return c
}

// Exports returns open, as the default export's method and by name.
func (c *compat) Exports() modules.Exports {
	named := map[string]any{"open": c.open}
	return modules.Exports{Default: named, Named: named}
}

// compatParamKeys are the params xk6-sse defines, plus timeout.
var compatParamKeys = map[string]bool{"method": true, "body": true, "headers": true, "tags": true, "timeout": true}

// compatClient is the client object handed to the setup function.
type compatClient struct {
	handlers map[string][]sobek.Callable
	closed   bool
	// delivered counts the events handed to the script, for sse_event.
	delivered int
	// err is the exception a handler threw, which ends the stream and is
	// rethrown to the script as it is.
	err error
}

// open sends the request, runs setup(client), then delivers events to the
// client's handlers until the stream ends or client.close() is called. It
// returns {url, status, headers, error}.
func (c *compat) open(url string, args ...sobek.Value) (sobek.Value, error) {
	rt := c.vu.Runtime()
	params, setup, err := compatArgs(args)
	if err != nil {
		return nil, err
	}
	req, tags, user, err := compatRequest(rt, url, params)
	if err != nil {
		return nil, err
	}
	cl := &compatClient{handlers: map[string][]sobek.Callable{}}
	if _, err := setup(sobek.Undefined(), c.clientValue(cl)); err != nil {
		return nil, err
	}
	// The callbacks run on the VU's goroutine while Send blocks it with
	// its JavaScript turn given up: each takes the turn back.
	req.OnOpen = func(int, http.Header) error {
		return modules.Holding(c.vu, func() error { return cl.fail(cl.emit("open")) })
	}
	req.OnEvent = func(ev *sse.Event) error {
		return modules.Holding(c.vu, func() error { return cl.deliver(rt, ev) })
	}
	start := time.Now()
	res, err := c.probe.Send(req, tags)
	if err != nil {
		return nil, err
	}
	c.record(res, url, user, cl.delivered, start)
	if res.Failed() && res.ErrorCode != "callback_error" {
		if err := cl.emit("error", rt.ToValue(compatError(res.Error))); err != nil {
			return nil, err
		}
	}
	if cl.err != nil {
		return nil, cl.err // the handler's own exception, not the probe's wording
	}
	if res.ErrorCode == "callback_error" {
		return nil, errors.New(res.Error)
	}
	return compatResponse(rt, res), nil
}

// compatArgs splits (params, setup) or (setup).
func compatArgs(args []sobek.Value) (sobek.Value, sobek.Callable, error) {
	var params, setupV sobek.Value
	switch len(args) {
	case 1:
		params, setupV = sobek.Undefined(), args[0]
	case 2:
		params, setupV = args[0], args[1]
	default:
		return nil, nil, errors.New("sse.open(url, [params], setup): wrong number of arguments")
	}
	setup, ok := sobek.AssertFunction(setupV)
	if !ok {
		return nil, nil, errors.New("sse.open: the last argument must be a function")
	}
	return params, setup, nil
}

// compatRequest builds the request from xk6-sse params: method (GET),
// body, headers, tags, timeout. The dialect is auto-detected. tags are
// the probe's (name and method added), user the params' own.
func compatRequest(rt *sobek.Runtime, url string, params sobek.Value) (req *sse.Request, tags, user map[string]string, err error) {
	req = &sse.Request{Method: http.MethodGet, URL: url, Header: http.Header{}}
	user = map[string]string{}
	if p := object(rt, params); p != nil {
		for _, k := range p.Keys() {
			if !compatParamKeys[k] {
				return nil, nil, nil, errors.New("sse.open: unknown param " + k)
			}
			if err := applyCompatParam(rt, k, p.Get(k), req, user); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	tags = maps.Clone(user)
	if _, named := tags["name"]; !named {
		tags["name"] = redact.URL(url)
	}
	tags["method"] = req.Method
	return req, tags, user, req.Validate()
}

// applyCompatParam reads one param; method and body are xk6-sse's own.
func applyCompatParam(rt *sobek.Runtime, key string, v sobek.Value, req *sse.Request, tags map[string]string) error {
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
		return nil
	}
	switch key {
	case "method":
		req.Method = strings.TrimSpace(v.String())
	case "body":
		req.Body = []byte(strings.TrimSpace(v.String()))
	default: // headers, tags, timeout: as k6/x/usefulsse reads them
		return usefulsse.ApplyParam(rt, key, v, req, tags)
	}
	return nil
}

// object returns v as an object, or nil for undefined and null.
func object(rt *sobek.Runtime, v sobek.Value) *sobek.Object {
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
		return nil
	}
	return v.ToObject(rt)
}

// clientValue is the JS client: on(name, fn) and close().
func (c *compat) clientValue(cl *compatClient) *sobek.Object {
	obj := c.vu.Runtime().NewObject()
	_ = obj.Set("on", func(name string, fn sobek.Value) {
		if f, ok := sobek.AssertFunction(fn); ok {
			cl.handlers[name] = append(cl.handlers[name], f)
		}
	})
	_ = obj.Set("close", func() { cl.closed = true })
	return obj
}

// emit calls the handlers of name.
func (cl *compatClient) emit(name string, args ...sobek.Value) error {
	for _, h := range cl.handlers[name] {
		if _, err := h(sobek.Undefined(), args...); err != nil {
			return err
		}
	}
	return nil
}

// deliver hands an event to the 'event' handlers as xk6-sse shapes it:
// {id, name, data, comment}; comment lines arrive as events with only
// comment set. After client.close() the stream ends cleanly.
func (cl *compatClient) deliver(rt *sobek.Runtime, ev *sse.Event) error {
	if cl.closed {
		return sse.ErrStop
	}
	cl.delivered++
	obj := rt.NewObject()
	_ = obj.Set("id", ev.ID)
	_ = obj.Set("name", ev.Type)
	_ = obj.Set("data", ev.Data)
	_ = obj.Set("comment", ev.Comment)
	if err := cl.emit("event", obj); err != nil {
		return cl.fail(err)
	}
	if cl.closed {
		return sse.ErrStop
	}
	return nil
}

// fail keeps the first exception of a handler and returns err.
func (cl *compatClient) fail(err error) error {
	if err != nil && cl.err == nil {
		cl.err = err
	}
	return err
}

// compatError is the error object handed to 'error' handlers: e.error()
// returns the message.
type compatError string

func (e compatError) Error() string { return string(e) }

// compatResponse is {url, status, headers, error}.
func compatResponse(rt *sobek.Runtime, r *sse.Result) sobek.Value {
	headers := make(map[string]any, len(r.Header))
	for k, v := range r.Header {
		headers[k] = strings.Join(v, ", ")
	}
	return rt.ToValue(map[string]any{"url": r.URL, "status": r.Status, "headers": headers, "error": r.Error})
}
