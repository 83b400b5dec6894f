package k6http

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/cookiejar"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/internal/sockstamp"
	"github.com/usefullatency/usefullatency/js/modules"
	k6html "github.com/usefullatency/usefullatency/js/modules/html"
	"github.com/usefullatency/usefullatency/metrics"
)

var errInit = errors.New("k6/http: requests can't be made in the init context: make them inside an exported function")

// HTTP is the k6/http module of one VU. Its transport, and so its
// connections, are the VU's own.
type HTTP struct {
	vu        modules.VU
	metrics   *httpMetrics
	once      sync.Once
	transport *directTransport
	settings  settings
	// expect is the VU's response callback (setResponseCallback); nil
	// for none.
	expect *statusSet
	// jar is the VU's cookie jar of iteration jarIteration.
	jar          *cookiejar.Jar
	jarIteration int64
	// connIteration is the iteration of the VU's last request.
	connIteration int64
	// kit makes the Selections of Response.html(); nil until the first.
	kit *k6html.Kit
	// pages are the page methods of the VU's responses; nil until the
	// first response.
	pages *pageMethods
	// header is the header of the VU's requests that set none (see
	// defaults.header).
	header http.Header
	// urls are the URLs the VU requested lately, parsed; tracers keeps a
	// tracer between its exchanges.
	urls    urlCache
	tracers tracerSlot
	// lastTags holds the metrics.Tags of the VU's last recorded
	// exchange, shared by the next when equal; samples keeps a buffer of
	// samples between its exchanges.
	lastTags atomic.Value
	samples  sampleSlot
}

var _ modules.Instance = (*HTTP)(nil)

// newHTTP instantiates the module in vu and registers k6's HTTP metrics in
// the run's registry (idempotent: once per run in effect).
func newHTTP(vu modules.VU) *HTTP {
	// The kernel's receive stamping is switched on now, in init, once per
	// process (sockstamp.KeepOn), so a first connection's first bytes are
	// stamped: its wait of a few milliseconds, paid at the first request,
	// held every VU's first request behind it.
	sockstamp.KeepOn()
	h := &HTTP{vu: vu, expect: defaultExpected}
	if run := vu.State().Run; run != nil {
		h.metrics = registerMetrics(run.Registry)
	}
	st := vu.State()
	st.CookieJar = func() http.CookieJar { return h.vuJar() }
	st.CookieJarOf = jarOf
	return h
}

// Exports returns the request functions, the response callback functions
// and k6's TLS version and OCSP constants, as the default export and as
// named exports.
func (h *HTTP) Exports() modules.Exports {
	named := map[string]any{
		"request": h.request, "get": h.get, "head": h.head, "post": h.bodyMethod(http.MethodPost),
		"put": h.bodyMethod(http.MethodPut), "patch": h.bodyMethod(http.MethodPatch),
		"del": h.bodyMethod(http.MethodDelete), "options": h.bodyMethod(http.MethodOptions),
		"asyncRequest": h.asyncRequest, "batch": h.batch,
		"expectedStatuses": func(args ...sobek.Value) (*statusSet, error) {
			return expectedStatuses(h.vu.Runtime(), args)
		},
		"setResponseCallback": h.setResponseCallback,
		"cookieJar":           h.cookieJar, "CookieJar": h.newCookieJar,
		"file": h.file, "url": h.url,
		"TLS_1_0": "tls1.0", "TLS_1_1": "tls1.1", "TLS_1_2": "tls1.2", "TLS_1_3": "tls1.3",
	}
	maps.Copy(named, ocspExports())
	return modules.Exports{Default: named, Named: named}
}

// roundTripper returns the VU's transport, built on first use with the
// run's settings.
func (h *HTTP) roundTripper() http.RoundTripper {
	h.once.Do(func() {
		h.settings = runSettings(h.vu.State().Run, h.vu.State().VUID)
		h.header = http.Header{"User-Agent": {h.settings.userAgent}}
		h.transport = newDirectTransport(newTransport(h.settings.network, h.settings.noReuse))
	})
	return h.transport
}

// call is a checked request with what its samples need, captured on the
// VU's goroutine so that it can be sent from another.
type call struct {
	req  *request
	base metrics.Tags
	// meta is the VU's metadata when the request started.
	meta metrics.Tags
	// debug logs the request's hops (httpDebug); nil when off.
	debug *debugLog
}

// prepare checks the arguments of a request on the VU's goroutine.
func (h *HTTP) prepare(method string, url, body, params sobek.Value) (*call, error) {
	if h.vu.InInit() {
		return nil, errInit
	}
	if !isToken(method) {
		return nil, fmt.Errorf("k6/http: invalid method %q: want a token such as GET or POST", method)
	}
	h.roundTripper()
	h.newIteration()
	d := defaults{
		redirects: h.settings.maxRedirects, redirectsSet: h.settings.maxRedirectsSet,
		expect: h.expect, jar: h.vuJar(), userAgent: h.settings.userAgent, header: h.header, urls: &h.urls,
	}
	if h.settings.discard {
		d.responseType = asNone
	}
	req, err := newRequest(h.vu.Runtime(), method, url, body, params, d)
	if err != nil {
		return nil, err
	}
	req.tracers = &h.tracers
	return &call{req: req, base: h.vu.State().Tags, meta: h.vu.State().Metadata, debug: h.debugLog(req)}, nil
}

// debugLog returns the httpDebug log of req, nil when the option is off.
func (h *HTTP) debugLog(req *request) *debugLog {
	mode := h.settings.network.HTTPDebug
	st := h.vu.State()
	if mode == "" || st.Run == nil || st.Run.Log == nil {
		return nil
	}
	tags := metrics.Tags{}
	for k, v := range st.Tags {
		tags[k] = v
	}
	for k, v := range req.tags {
		tags[k] = v
	}
	run := st.Run
	return &debugLog{
		full: mode == "full", w: run.Log, fields: newDebugFields(st.VUID, st.Iteration, tags),
		secs: func() int {
			if run.Info == nil {
				return 0
			}
			return int(run.Info.Elapsed().Seconds())
		},
	}
}

// newIteration closes the VU's idle connections at its first request of
// an iteration, with the noVUConnectionReuse option.
func (h *HTTP) newIteration() {
	it := h.vu.State().Iteration
	if h.settings.noVUReuse && it != h.connIteration {
		h.transport.CloseIdleConnections()
	}
	h.connIteration = it
}

// isToken reports whether s is an HTTP token (RFC 9110), as a method must
// be.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r > 126 || r <= 32 || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}

// send sends a prepared request, following redirects, and pushes the
// samples of every exchange; safe from any goroutine.
// It waits first for the run's rps limit, once per request (redirect hops
// and digest challenges included), as k6 does.
func (h *HTTP) send(ctx context.Context, c *call) *exchange {
	rt := h.roundTripper()
	if err := h.settings.network.RateLimit.Wait(ctx); err != nil {
		ex := &exchange{method: c.req.method, url: c.req.url, reqHeader: c.req.header, reqBody: c.req.body}
		ex.fail(ctx, err)
		ex.end = time.Now()
		return ex
	}
	if c.debug != nil {
		rt = c.debug.wrap(rt)
	}
	return do(ctx, rt, c.req, func(ex *exchange) { h.record(c, ex) })
}

// response turns the last exchange into the script's response, or into an
// exception for a network failure when the throw option is set. It runs
// on the VU's goroutine.
func (h *HTTP) response(c *call, ex *exchange) (sobek.Value, error) {
	if ex.status == 0 && ex.errorCode != 0 {
		if h.settings.throw {
			return nil, fmt.Errorf("k6/http: %s %s: %s (error_code %d)", ex.method, redact.URL(ex.url), redact.Text(ex.errorMsg), ex.errorCode)
		}
		h.warnFailed(ex)
	}
	if ex.stoppedAfter > 0 && !c.req.redirectsSet {
		h.warnRedirects(c.req.url, ex.stoppedAfter)
	}
	obj, r := responseValue(h.vu.Runtime(), c.req, ex)
	h.addPageMethods(obj, r)
	return obj, nil
}

// warnFailed logs k6's "Request Failed" warning for a request that got no
// response, with the error as Go's client words it: Get "url": reason.
func (h *HTTP) warnFailed(ex *exchange) {
	method := strings.ToUpper(ex.method[:min(1, len(ex.method))]) + strings.ToLower(ex.method[min(1, len(ex.method)):])
	msg := fmt.Sprintf("%s %q: %s", method, redact.URL(ex.url), redact.Text(ex.errorMsg))
	h.warn("Request Failed  error=" + strconv.Quote(msg))
}

// warnRedirects logs k6's warning for a request to url that stopped at the
// default redirect limit and returned the redirect response; sent is the
// number of requests it sent, as k6 counts "redirects" in it.
func (h *HTTP) warnRedirects(url string, sent int) {
	h.warn(fmt.Sprintf("Stopped after %d redirects and returned the redirection; pass { redirects: n } in request params"+
		" or set global maxRedirects to silence this  url=%s", sent, strconv.Quote(redact.URL(url))))
}

// warn writes a warning to the run's log in the terminal form, "WARN
// message  key=value" (see logline).
func (h *HTTP) warn(line string) {
	st := h.vu.State()
	if st == nil || st.Run == nil || st.Run.Log == nil {
		return
	}
	fmt.Fprintf(st.Run.Log, "WARN %s\n", line)
}

// request is http.request(method, url, body, params): it sends the request,
// follows redirects, blocks the VU until the last response was read, and
// returns it. Only bad arguments throw (and network failures with the
// throw option).
func (h *HTTP) request(method string, url, body, params sobek.Value) (sobek.Value, error) {
	c, err := h.prepare(method, url, body, params)
	if err != nil {
		return nil, err
	}
	var ex *exchange
	modules.Blocking(h.vu, func() { ex = h.send(h.vu.Context(), c) })
	return h.response(c, ex)
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

// setResponseCallback is http.setResponseCallback(callback): the VU's
// default response callback, the result of expectedStatuses or null.
func (h *HTTP) setResponseCallback(v sobek.Value) error {
	s, err := responseCallback(v)
	if err != nil {
		return fmt.Errorf("k6/http: setResponseCallback: %w", err)
	}
	h.expect = s
	return nil
}

// record pushes the samples of one exchange, unless the VU's context
// ended it (an interrupted iteration is not a failed request); safe from
// any goroutine.
func (h *HTTP) record(c *call, ex *exchange) {
	if h.metrics == nil || ex.canceled {
		return
	}
	expect := c.req.expect
	if ex.challenge && expect != nil {
		expect = challengeExpected
	}
	last, _ := h.lastTags.Load().(metrics.Tags)
	tags := exchangeTags(c.base, c.req.tags, ex, expect, last)
	h.lastTags.Store(tags)
	buf := h.samples.take()
	h.vu.State().Run.Engine.Push(modules.WithMetadata(h.metrics.samples(ex, tags, expect, buf), c.meta)...)
	h.samples.give(buf)
}
