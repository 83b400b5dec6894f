package k6http

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"

	"github.com/grafana/sobek"

	"github.com/usefullatency/usefullatency/js/modules"
)

// batch is http.batch(requests): the requests, an array or an object of
// them, are sent in parallel (at most the batch option at once, 20 by
// default, and batchPerHost to one host, 6 by default; 0 is no limit),
// and their responses are returned in the same shape. Each request is a
// URL string (a GET), an array [method, url, body, params] or an object
// {method, url, body, params}. Every request is checked before any is
// sent.
func (h *HTTP) batch(requests sobek.Value) (sobek.Value, error) {
	if h.vu.InInit() {
		return nil, errInit
	}
	if isNullish(requests) {
		return nil, errors.New("k6/http: batch needs an array or an object of requests")
	}
	rt := h.vu.Runtime()
	_, isArray := requests.Export().([]any)
	obj := requests.ToObject(rt)
	keys := obj.Keys()
	calls := make([]*call, len(keys))
	for i, k := range keys {
		c, err := h.batchCall(obj.Get(k))
		if err != nil {
			return nil, fmt.Errorf("k6/http: batch request %s: %w", k, err)
		}
		calls[i] = c
	}
	var exs []*exchange
	modules.Blocking(h.vu, func() { exs = h.sendAll(h.vu.Context(), calls) })
	values := make([]sobek.Value, len(calls))
	for i, c := range calls {
		v, err := h.response(c, exs[i])
		if err != nil {
			return nil, err
		}
		values[i] = v
	}
	if isArray {
		return rt.NewArray(toAny(values)...), nil
	}
	out := rt.NewObject()
	for i, k := range keys {
		_ = out.Set(k, values[i])
	}
	return out, nil
}

// batchCall prepares one request of a batch.
func (h *HTTP) batchCall(v sobek.Value) (*call, error) {
	rt := h.vu.Runtime()
	undef := sobek.Undefined()
	switch x := v.Export().(type) {
	case string, *urlTemplate:
		return h.prepare(http.MethodGet, v, undef, undef)
	case []any:
		arr := v.ToObject(rt)
		if len(x) < 2 {
			return nil, errors.New("want [method, url, body, params]")
		}
		return h.prepare(arr.Get("0").String(), arr.Get("1"), arr.Get("2"), arr.Get("3"))
	case map[string]any:
		o := v.ToObject(rt)
		method := http.MethodGet
		if m := o.Get("method"); !isNullish(m) {
			method = m.String()
		}
		return h.prepare(method, o.Get("url"), o.Get("body"), o.Get("params"))
	}
	return nil, fmt.Errorf("want a URL, [method, url, body, params] or {method, url, body, params}, got %s", v.String())
}

// sendAll sends the calls in parallel within the batch limits and returns
// their last exchanges in order.
func (h *HTTP) sendAll(ctx context.Context, calls []*call) []*exchange {
	exs := make([]*exchange, len(calls))
	total := newLimit(h.settings.batch)
	perHost := map[string]*limit{}
	var wg sync.WaitGroup
	for i, c := range calls {
		host := hostOf(c.req.url)
		if perHost[host] == nil {
			perHost[host] = newLimit(h.settings.batchPerHost)
		}
		hostLimit := perHost[host]
		wg.Add(1)
		go func() {
			defer wg.Done()
			total.acquire()
			defer total.release()
			hostLimit.acquire()
			defer hostLimit.release()
			exs[i] = h.send(ctx, c)
		}()
	}
	wg.Wait()
	return exs
}

// limit bounds how many requests run at once; a nil limit is no bound.
type limit chan struct{}

// newLimit returns a limit of n, or nil (none) for n <= 0.
func newLimit(n int) *limit {
	if n <= 0 {
		return nil
	}
	l := make(limit, n)
	return &l
}

func (l *limit) acquire() {
	if l != nil {
		*l <- struct{}{}
	}
}

func (l *limit) release() {
	if l != nil {
		<-*l
	}
}

// hostOf returns the host:port of a URL.
func hostOf(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return u
	}
	return parsed.Host
}

// toAny converts values for sobek's NewArray.
func toAny(values []sobek.Value) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}
