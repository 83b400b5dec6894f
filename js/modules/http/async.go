package k6http

import (
	"github.com/grafana/sobek"
)

// asyncRequest is http.asyncRequest(method, url, body, params): the request
// is sent without blocking the VU and the returned promise is settled on
// the VU's event loop with the response. Bad arguments reject the promise
// before anything is sent.
func (h *HTTP) asyncRequest(method string, url, body, params sobek.Value) *sobek.Promise {
	promise, resolve, reject := h.vu.Runtime().NewPromise()
	c, err := h.prepare(method, url, body, params)
	if err != nil {
		_ = reject(err)
		return promise
	}
	ctx, done := h.vu.Context(), h.vu.RegisterCallback()
	go func() {
		ex := h.send(ctx, c)
		done(func() error {
			v, err := h.response(c, ex)
			if err != nil {
				return reject(err)
			}
			return resolve(v)
		})
	}()
	return promise
}
