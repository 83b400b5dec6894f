package k6http

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

var errInit = errors.New("k6/http: requests can't be made in the init context: make them inside an exported function")

// HTTP is the k6/http module of one VU. Its transport, and so its
// connections, are the VU's own.
type HTTP struct {
	vu        modules.VU
	metrics   *httpMetrics
	once      sync.Once
	transport *http.Transport
	settings  settings
}

var _ modules.Instance = (*HTTP)(nil)

// newHTTP instantiates the module in vu and registers k6's HTTP metrics in
// the run's registry (idempotent: once per run in effect).
func newHTTP(vu modules.VU) *HTTP {
	h := &HTTP{vu: vu}
	if run := vu.State().Run; run != nil {
		h.metrics = registerMetrics(run.Registry)
	}
	return h
}

// Exports returns the request functions and k6's TLS version constants,
// as the default export and as named exports.
func (h *HTTP) Exports() modules.Exports {
	named := map[string]any{
		"request": h.request, "get": h.get, "head": h.head, "post": h.bodyMethod(http.MethodPost),
		"put": h.bodyMethod(http.MethodPut), "patch": h.bodyMethod(http.MethodPatch),
		"del": h.bodyMethod(http.MethodDelete), "options": h.bodyMethod(http.MethodOptions),
		"TLS_1_0": "tls1.0", "TLS_1_1": "tls1.1", "TLS_1_2": "tls1.2", "TLS_1_3": "tls1.3",
	}
	return modules.Exports{Default: named, Named: named}
}

// roundTripper returns the VU's transport, built on first use with the
// run's settings.
func (h *HTTP) roundTripper() http.RoundTripper {
	h.once.Do(func() {
		opts := clientOptions{}
		run := h.vu.State().Run
		if run != nil {
			opts.InsecureSkipTLSVerify = run.InsecureSkipTLSVerify
		}
		h.transport = newTransport(opts)
		h.settings = runSettings(run)
	})
	return h.transport
}

// request is http.request(method, url, body, params): it sends the request,
// follows redirects, blocks the VU until the last response was read, and
// returns it. Only bad arguments throw.
func (h *HTTP) request(method string, url, body, params sobek.Value) (sobek.Value, error) {
	if h.vu.InInit() {
		return nil, errInit
	}
	if strings.TrimSpace(method) == "" {
		return nil, errors.New("k6/http: the method argument is empty")
	}
	rt, transport := h.vu.Runtime(), h.roundTripper()
	req, err := newRequest(rt, method, url, body, params, h.settings.maxRedirects)
	if err != nil {
		return nil, err
	}
	ex := do(h.vu.Context(), transport, req, func(ex *exchange) { h.record(req, ex) })
	if h.settings.throw && ex.status == 0 && ex.errorCode != 0 {
		return nil, fmt.Errorf("k6/http: %s %s: %s (error_code %d)", ex.method, ex.url, ex.errorMsg, ex.errorCode)
	}
	return responseValue(rt, req, ex), nil
}

// get is http.get(url, params).
func (h *HTTP) get(url, params sobek.Value) (sobek.Value, error) {
	return h.request(http.MethodGet, url, sobek.Undefined(), params)
}

// head is http.head(url, params).
func (h *HTTP) head(url, params sobek.Value) (sobek.Value, error) {
	return h.request(http.MethodHead, url, sobek.Undefined(), params)
}

// bodyMethod returns http.post, put, patch, del or options: (url, body,
// params) sent with method.
func (h *HTTP) bodyMethod(method string) func(url, body, params sobek.Value) (sobek.Value, error) {
	return func(url, body, params sobek.Value) (sobek.Value, error) {
		return h.request(method, url, body, params)
	}
}

// record pushes the samples of one exchange, unless the VU's context
// ended it (an interrupted iteration is not a failed request).
func (h *HTTP) record(req *request, ex *exchange) {
	if h.metrics == nil || ex.canceled {
		return
	}
	st := h.vu.State()
	st.Push(h.metrics.samples(ex, exchangeTags(st.Tags, req.tags, ex))...)
}
