package usefulsse

import (
	"errors"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/sockstamp"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/sse"
)

var errInit = errors.New("streaming requests can't be made in the init context: make them inside an exported function")

// Probe is the k6/x/usefulsse module of one VU. Its HTTP client, and so
// its connections, are the VU's own.
type Probe struct {
	vu      modules.VU
	metrics *probeMetrics
	once    sync.Once
	client  *sse.Client
	// noVUReuse closes the client's idle connections at each iteration's
	// first request (noVUConnectionReuse); connIteration is the
	// iteration of the VU's last request.
	noVUReuse     bool
	connIteration int64
	// omitHTTP drops k6's http_reqs and http_req_failed from the samples:
	// a module that pushes its own (k6/x/sse) set it.
	omitHTTP bool
	// samples keeps a buffer of samples between the VU's requests, tags
	// the tags of its last request.
	samples sampleSlot
	tags    tagCache
}

// OmitHTTPMetrics makes the probe push neither http_reqs nor
// http_req_failed, for a module that emits k6's HTTP metrics its own way
// (k6/x/sse, as xk6-sse emits them). The usefulsse_* metrics, data_sent
// and data_received are pushed as always.
func (p *Probe) OmitHTTPMetrics() { p.omitHTTP = true }

var _ modules.Instance = (*Probe)(nil)

// NewProbe instantiates the module in vu and registers the probe's metrics
// in the run's registry (once per run: registering is idempotent).
func NewProbe(vu modules.VU) *Probe {
	sockstamp.KeepOn() // in init, not at the first stream (see k6/http's newHTTP)
	p := &Probe{vu: vu}
	if run := vu.State().Run; run != nil {
		p.metrics = registerProbeMetrics(run.Registry)
	}
	return p
}

// Exports returns request, post, get, requestAsync and watch, as the
// default export and as named exports.
func (p *Probe) Exports() modules.Exports {
	named := map[string]any{
		"request": p.requestCall, "post": p.postCall, "get": p.getCall, "requestAsync": p.requestAsync,
		"watch": p.watch,
	}
	return modules.Exports{Default: named, Named: named}
}

// httpClient returns the VU's client: its connections are reused across
// the VU's requests. It dials and speaks TLS through the network stack
// k6/http uses (hosts, blockHostnames, blacklistIPs, dns, localIPs, the
// TLS options) and sends the userAgent option.
func (p *Probe) httpClient() *sse.Client {
	p.once.Do(func() {
		st := p.vu.State()
		nw := st.Run.Network(st.VUID)
		opts := sse.ClientOptions{Dial: nw.Dialer.DialContext, TLSConfig: nw.TLS, DisableKeepAlives: nw.NoConnectionReuse,
			NetHTTPOnly: st.Run.ProbeNetHTTP}
		if st.Run.Capture != nil {
			opts.Capture = st.Run.Capture()
		}
		p.noVUReuse = nw.NoVUConnectionReuse
		if st.Run != nil {
			opts.InsecureSkipTLSVerify = st.Run.InsecureSkipTLSVerify
		}
		if nw.UserAgentSet {
			opts.UserAgent, opts.NoUserAgent = nw.UserAgent, nw.UserAgent == ""
		}
		p.client = sse.NewClient(opts)
	})
	return p.client
}

// request sends a streaming request and blocks the VU until it ended.
func (p *Probe) request(method, url string, body, params sobek.Value) (sobek.Value, error) {
	call, err := p.prepare(method, url, body, params, holding(p.vu))
	if err != nil {
		return nil, err
	}
	var res *sse.Result
	modules.Blocking(p.vu, func() { res = p.httpClient().Do(p.vu.Context(), call.req) })
	good := call.slo.verdict(res)
	p.record(call, res, good)
	return resultValue(p.vu.Runtime(), res, good), nil
}

// The blocking requests are called without reflection, once per stream:
// request(method, url, body, params), post(url, body, params) and
// get(url, params) read their arguments as sobek's conversion of a Go
// function's parameters would (a string from undefined or null is empty, a
// missing value nil) and throw an error as it would.

func (p *Probe) requestCall(call sobek.FunctionCall) sobek.Value {
	return p.returned(p.request(stringArg(call, 0), stringArg(call, 1), valueArg(call, 2), valueArg(call, 3)))
}

func (p *Probe) postCall(call sobek.FunctionCall) sobek.Value {
	return p.returned(p.request(http.MethodPost, stringArg(call, 0), valueArg(call, 1), valueArg(call, 2)))
}

func (p *Probe) getCall(call sobek.FunctionCall) sobek.Value {
	return p.returned(p.request(http.MethodGet, stringArg(call, 0), sobek.Undefined(), valueArg(call, 1)))
}

// returned returns v, or throws err: an exception as it is, any other error
// as a GoError.
func (p *Probe) returned(v sobek.Value, err error) sobek.Value {
	if err == nil {
		return v
	}
	if ex, ok := err.(*sobek.Exception); ok {
		panic(ex)
	}
	panic(p.vu.Runtime().NewGoError(err))
}

// stringArg returns argument i as a string: empty when missing, undefined
// or null.
func stringArg(call sobek.FunctionCall, i int) string {
	v := valueArg(call, i)
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
		return ""
	}
	return v.String()
}

// valueArg returns argument i, nil when missing.
func valueArg(call sobek.FunctionCall, i int) sobek.Value {
	if i < len(call.Arguments) {
		return call.Arguments[i]
	}
	return nil
}

// requestAsync sends a streaming request without blocking the VU and
// returns a promise of its result, resolved on the VU's event loop. JS
// callbacks of the request (onEvent, function predicates) run on the loop.
func (p *Probe) requestAsync(method, url string, body, params sobek.Value) *sobek.Promise {
	rt := p.vu.Runtime()
	promise, resolve, reject := rt.NewPromise()
	ctx := p.vu.Context()
	call, err := p.prepare(method, url, body, params, onLoop(p.vu, ctx))
	if err != nil {
		_ = reject(err)
		return promise
	}
	done := p.vu.RegisterCallback()
	client := p.httpClient()
	go func() {
		res := client.Do(ctx, call.req)
		good := call.slo.verdict(res)
		p.record(call, res, good)
		done(func() error { return resolve(resultValue(rt, res, good)) })
	}()
	return promise
}

// call is a prepared request with the tags its samples carry.
type call struct {
	req  *sse.Request
	tags metrics.Tags
	// meta is the VU's metadata when the request started.
	meta metrics.Tags
	// slo are the request's objectives; empty without the slo param.
	slo objectives
}

// prepare checks the VU context and builds the request; run is how the
// request's JS callbacks are invoked.
func (p *Probe) prepare(method, url string, body, params sobek.Value, run invoker) (*call, error) {
	if p.vu.InInit() {
		return nil, errInit
	}
	s, err := buildRequest(p.vu.Runtime(), method, url, body, params, run)
	if err != nil {
		return nil, err
	}
	c, err := p.prepareRequest(s.req, s.tags)
	if err != nil {
		return nil, err
	}
	c.slo = s.slo
	return c, nil
}

// prepareRequest completes a built request with the iteration's due time
// and the tags of its samples.
func (p *Probe) prepareRequest(req *sse.Request, tags map[string]string) (*call, error) {
	if p.vu.InInit() {
		return nil, errInit
	}
	st := p.vu.State()
	p.newIteration(st.Iteration)
	req.ScheduledAt = st.Scheduled
	if n, ok := st.Run.IntOption("maxRedirects"); ok && req.MaxRedirects == 0 {
		req.MaxRedirects = n
		if n <= 0 {
			req.MaxRedirects = -1 // the option's 0 follows none
		}
	}
	return &call{req: req, tags: p.tags.merged(st.Tags, tags), meta: st.Metadata}, nil
}

// newIteration closes the VU's idle connections at its first request of
// an iteration, with the noVUConnectionReuse option.
func (p *Probe) newIteration(it int64) {
	client := p.httpClient()
	if p.noVUReuse && it != p.connIteration {
		client.CloseIdleConnections()
	}
	p.connIteration = it
}

// Send sends req, built outside this module (k6/x/sse builds its own), as
// the module sends a blocking request: due at the iteration's scheduled
// time, its samples tagged with the VU's tags plus tags, the VU blocked
// until the stream ended. It fails only in the init context.
func (p *Probe) Send(req *sse.Request, tags map[string]string) (*sse.Result, error) {
	call, err := p.prepareRequest(req, tags)
	if err != nil {
		return nil, err
	}
	var res *sse.Result
	modules.Blocking(p.vu, func() { res = p.httpClient().Do(p.vu.Context(), call.req) })
	p.record(call, res, nil)
	return res, nil
}

// record pushes the request's samples, with its goodput verdict good (nil
// without objectives); safe from any goroutine.
func (p *Probe) record(c *call, res *sse.Result, good *bool) {
	if p.metrics == nil {
		return
	}
	buf := p.samples.take()
	out := p.metrics.samples(res, good, p.tags.request(c.tags, res), time.Now(), *buf)
	if p.omitHTTP {
		out = slices.DeleteFunc(out, func(s metrics.Sample) bool {
			return s.Metric == p.metrics.httpReqs || s.Metric == p.metrics.httpReqFailed
		})
	}
	p.vu.State().Run.Engine.Push(modules.WithMetadata(out, c.meta)...)
	*buf = out
	p.samples.give(buf)
}
