// Package usefullatency is the xk6-shaped top of the repository: it
// registers the k6/x/usefulsse JavaScript module (and k6/x/sse, the xk6-sse
// compatible API) into the runner, the way an xk6 extension registers into
// k6. The module turns JavaScript values into an sse.Request and the
// sse.Result back into a JavaScript object; the stream logic lives in sse/.
package usefullatency

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/sse"
)

func init() {
	modules.Register("k6/x/usefulsse", modules.ModuleFunc(newProbe))
	modules.Register("k6/x/sse", modules.ModuleFunc(newCompat))
}

var errInit = errors.New("streaming requests can't be made in the init context: make them inside an exported function")

// probe is the k6/x/usefulsse module of one VU.
type probe struct {
	vu      modules.VU
	metrics *probeMetrics
	once    sync.Once
	client  *sse.Client
}

func newProbe(vu modules.VU) modules.Instance {
	p := &probe{vu: vu}
	if run := vu.State().Run; run != nil {
		p.metrics = registerProbeMetrics(run.Registry)
	}
	return p
}

// Exports returns request, post, get and requestAsync, as the default
// export and as named exports.
func (p *probe) Exports() modules.Exports {
	named := map[string]any{
		"request": p.request, "post": p.post, "get": p.get, "requestAsync": p.requestAsync,
	}
	return modules.Exports{Default: named, Named: named}
}

// httpClient returns the VU's client: its connections are reused across
// the VU's requests.
func (p *probe) httpClient() *sse.Client {
	p.once.Do(func() {
		p.client = sse.NewClient(sse.ClientOptions{InsecureSkipTLSVerify: p.vu.State().Run.InsecureSkipTLSVerify})
	})
	return p.client
}

// request sends a streaming request and blocks the VU until it ended.
func (p *probe) request(method, url string, body, params sobek.Value) (sobek.Value, error) {
	call, err := p.prepare(method, url, body, params, direct)
	if err != nil {
		return nil, err
	}
	res := p.httpClient().Do(p.vu.Context(), call.req)
	p.record(call, res)
	return resultValue(p.vu.Runtime(), res), nil
}

// post is request("POST", …).
func (p *probe) post(url string, body, params sobek.Value) (sobek.Value, error) {
	return p.request(http.MethodPost, url, body, params)
}

// get is request("GET", …) without a body.
func (p *probe) get(url string, params sobek.Value) (sobek.Value, error) {
	return p.request(http.MethodGet, url, sobek.Undefined(), params)
}

// requestAsync sends a streaming request without blocking the VU and
// returns a promise of its result, resolved on the VU's event loop. JS
// callbacks of the request (onEvent, function predicates) run on the loop.
func (p *probe) requestAsync(method, url string, body, params sobek.Value) *sobek.Promise {
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
		p.record(call, res)
		done(func() error { return resolve(resultValue(rt, res)) })
	}()
	return promise
}

// call is a prepared request with the tags its samples carry.
type call struct {
	req  *sse.Request
	tags metrics.Tags
}

// prepare checks the VU context and builds the request; run is how the
// request's JS callbacks are invoked.
func (p *probe) prepare(method, url string, body, params sobek.Value, run runner) (*call, error) {
	if p.vu.InInit() {
		return nil, errInit
	}
	req, tags, err := buildRequest(p.vu.Runtime(), method, url, body, params, run)
	if err != nil {
		return nil, err
	}
	return p.prepareRequest(req, tags)
}

// prepareRequest completes a built request with the iteration's due time
// and the tags of its samples.
func (p *probe) prepareRequest(req *sse.Request, tags map[string]string) (*call, error) {
	if p.vu.InInit() {
		return nil, errInit
	}
	st := p.vu.State()
	req.ScheduledAt = st.Scheduled
	base := st.Tags
	for k, v := range tags {
		base = base.With(k, v)
	}
	return &call{req: req, tags: base}, nil
}

// record pushes the request's samples; safe from any goroutine.
func (p *probe) record(c *call, res *sse.Result) {
	if p.metrics == nil {
		return
	}
	p.vu.State().Run.Engine.Push(p.metrics.samples(res, c.tags, time.Now())...)
}

// runner invokes a JavaScript callback: directly on the VU's goroutine for
// blocking requests, through the event loop for async ones.
type runner func(fn func() error) error

// direct runs fn at once: the VU's goroutine is blocked in the request.
func direct(fn func() error) error { return fn() }

// onLoop returns a runner that queues fn on the VU's event loop and waits
// for it, so JavaScript only ever runs on the VU's own goroutine.
func onLoop(vu modules.VU, ctx context.Context) runner {
	return func(fn func() error) error {
		result := make(chan error, 1)
		vu.RegisterCallback()(func() error {
			result <- fn()
			return nil
		})
		select {
		case err := <-result:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
