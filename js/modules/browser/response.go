package k6browser

import (
	"context"
	"net"
	"strconv"
	"strings"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
)

// responseObject returns a Response object of a document's response: its
// status, URL and headers (the body is not kept).
func (m *instance) responseObject(r *chromium.Response) *sobek.Object {
	rt := m.rt()
	c := func(name string) call { return call{m: m, method: "response." + name} }
	headers := func() sobek.Value { return m.jsonValue(r.Headers) }
	now := func(v func() sobek.Value) method { return func(sobek.FunctionCall) sobek.Value { return v() } }
	later := func(name string, v func() sobek.Value) method {
		return func(sobek.FunctionCall) sobek.Value {
			return promise(c(name), func(context.Context) (struct{}, error) { return struct{}{}, nil },
				func(struct{}) sobek.Value { return v() })
		}
	}
	return m.object(r, map[string]method{
		"status":     now(func() sobek.Value { return rt.ToValue(r.Status) }),
		"statusText": now(func() sobek.Value { return rt.ToValue(r.StatusText) }),
		"url":        now(func() sobek.Value { return rt.ToValue(r.URL) }),
		"ok":         now(func() sobek.Value { return rt.ToValue(r.Status == 0 || (r.Status >= 200 && r.Status <= 299)) }),
		"headers":    now(headers),
		"fromCache":  now(func() sobek.Value { return rt.ToValue(r.FromCache) }),
		"allHeaders": later("allHeaders", headers),
		"headerValue": func(fc sobek.FunctionCall) sobek.Value {
			name := str(c("headerValue"), fc.Arguments, 0, "the header name")
			return later("headerValue", func() sobek.Value {
				v, ok := r.Headers[strings.ToLower(name)]
				if !ok {
					return sobek.Null()
				}
				return rt.ToValue(v)
			})(fc)
		},
		"serverAddr": later("serverAddr", func() sobek.Value {
			host, port, err := net.SplitHostPort(r.RemoteAddress)
			if err != nil {
				return sobek.Null()
			}
			n, _ := strconv.Atoi(port)
			return m.jsonValue(map[string]any{"ipAddress": host, "port": n})
		}),
	})
}
