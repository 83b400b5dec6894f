package usefulsse

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/sse"
)

// paramKeys are the params a request accepts; others are an error.
var paramKeys = map[string]bool{
	"headers": true, "tags": true, "name": true, "timeout": true, "idleTimeout": true, "dialect": true,
	"useful": true, "marks": true, "queue": true, "onEvent": true, "maxEventSize": true, "pricing": true,
	"contentTypes": true, "maxRedirects": true, "sensitiveHeaders": true, "allowInsecureRedirect": true,
	"maxResponseSize": true, "maxHeaderSize": true, "slo": true,
}

// spec is a request built from JavaScript arguments: what is sent, the
// request's own metric tags (params.tags, name, method) and its objectives
// (params.slo; empty without).
type spec struct {
	req  *sse.Request
	tags map[string]string
	slo  objectives
}

// buildRequest turns the JavaScript arguments of a request into an
// sse.Request, the request's own metric tags and its objectives. Every
// invalid param is reported before anything is sent.
func buildRequest(rt *sobek.Runtime, method, url string, body, params sobek.Value, run invoker) (*spec, error) {
	s := &spec{req: &sse.Request{Method: method, URL: url, Header: http.Header{}}}
	var err error
	if s.req.Body, err = requestBody(rt, body, s.req.Header); err != nil {
		return nil, err
	}
	s.tags = map[string]string{"name": redact.URL(url), "method": method}
	if p := object(rt, params); p != nil {
		if err := applyParams(rt, p, s, run); err != nil {
			return nil, err
		}
	}
	if err := s.req.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// applyParams reads every param of p into s.
func applyParams(rt *sobek.Runtime, p *sobek.Object, s *spec, run invoker) error {
	for _, key := range p.Keys() {
		if !paramKeys[key] {
			return fmt.Errorf("usefulsse: unknown param %q", key)
		}
		v := p.Get(key)
		if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
			continue
		}
		var err error
		if key == "slo" {
			s.slo, err = parseObjectives(v)
		} else {
			err = applyParam(rt, key, v, s.req, s.tags, run)
		}
		if err != nil {
			return fmt.Errorf("usefulsse: params.%s: %w", key, err)
		}
	}
	return nil
}

// ApplyParam reads one request param, key (a key request accepts), into req
// and tags, for modules that build their own requests (k6/x/sse). Function
// params (useful, marks, onEvent) are invoked directly, on the goroutine of
// the VU, which must be blocked in the request as in Probe.Send. slo is not
// read here: objectives are judged by this module's own requests only.
func ApplyParam(rt *sobek.Runtime, key string, v sobek.Value, req *sse.Request, tags map[string]string) error {
	return applyParam(rt, key, v, req, tags, direct)
}

// applyParam reads one param.
func applyParam(rt *sobek.Runtime, key string, v sobek.Value, req *sse.Request, tags map[string]string, run invoker) (err error) {
	switch key {
	case "headers":
		for k, val := range stringMap(rt, v) {
			req.Header.Set(k, val)
		}
	case "tags":
		for k, val := range stringMap(rt, v) {
			tags[k] = val
		}
	case "name":
		tags["name"] = v.String()
	case "timeout":
		req.Timeout, err = duration(v)
	case "idleTimeout":
		req.IdleTimeout, err = duration(v)
	case "dialect":
		req.Dialect, err = sse.ParseDialect(v.String())
	case "useful":
		req.Useful, err = sse.ParsePredicate(predicateSpec(rt, v, "useful", run))
	case "marks":
		req.Marks, err = marks(rt, v, run)
	case "queue":
		req.Queue, err = sse.ParseQueueSource(v.Export())
	case "onEvent":
		req.OnEvent, err = onEvent(rt, v, run)
	case "maxEventSize":
		req.MaxEventSize, err = byteSize(v)
	case "pricing":
		req.Pricing, err = pricing(v)
	case "contentTypes":
		req.AcceptContentTypes, err = stringList(v)
	default:
		return applyLimitParam(key, v, req)
	}
	return err
}

// applyLimitParam reads one param of the limits and the redirect policy.
func applyLimitParam(key string, v sobek.Value, req *sse.Request) (err error) {
	switch key {
	case "maxRedirects":
		req.MaxRedirects, err = redirectCount(v)
	case "sensitiveHeaders":
		req.SensitiveHeaders, err = stringList(v)
	case "allowInsecureRedirect":
		b, ok := v.Export().(bool)
		if !ok {
			return fmt.Errorf("want true or false, got %s", v.String())
		}
		req.AllowInsecureRedirect = b
	case "maxResponseSize":
		var n int
		n, err = byteSize(v)
		req.MaxResponseSize = int64(n)
	case "maxHeaderSize":
		req.MaxHeaderSize, err = byteSize(v)
	}
	return err
}

// redirectCount reads a number of redirects, a whole number from 0, as
// sse.Request.MaxRedirects: 0 (follow none) becomes -1.
func redirectCount(v sobek.Value) (int, error) {
	f := v.ToFloat()
	if f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		return 0, fmt.Errorf("want a whole number from 0, got %s", v.String())
	}
	if f == 0 {
		return -1, nil
	}
	return int(f), nil
}

// requestBody encodes a string, an ArrayBuffer (or typed array) or an
// object (as JSON, with Content-Type application/json unless set).
func requestBody(rt *sobek.Runtime, body sobek.Value, h http.Header) ([]byte, error) {
	if body == nil || sobek.IsUndefined(body) || sobek.IsNull(body) {
		return nil, nil
	}
	if t := body.ExportType(); t == typeMap || t == typeSlice {
		if data, ok := appendJSON(nil, rt, body, 0); ok {
			h.Set("Content-Type", "application/json")
			return data, nil
		}
	}
	switch b := body.Export().(type) {
	case string:
		return []byte(b), nil
	case sobek.ArrayBuffer:
		return b.Bytes(), nil
	case []byte:
		return b, nil
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return nil, fmt.Errorf("usefulsse: the body can't be sent as JSON: %w", err)
		}
		h.Set("Content-Type", "application/json")
		return data, nil
	}
}

// object returns v as an object, or nil for undefined and null.
func object(rt *sobek.Runtime, v sobek.Value) *sobek.Object {
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
		return nil
	}
	return v.ToObject(rt)
}

// stringMap reads an object of strings.
func stringMap(rt *sobek.Runtime, v sobek.Value) map[string]string {
	obj := v.ToObject(rt)
	keys := obj.Keys()
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		out[k] = obj.Get(k).String()
	}
	return out
}

// duration reads a duration string ("30s", "1m") or milliseconds.
func duration(v sobek.Value) (time.Duration, error) {
	if s, ok := v.Export().(string); ok {
		return options.ParseDuration(s)
	}
	ms := v.ToFloat()
	if ms < 0 {
		return 0, fmt.Errorf("%v must not be negative", ms)
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// byteSize reads "1MiB", "64KiB" or a number of bytes.
func byteSize(v sobek.Value) (int, error) {
	if s, ok := v.Export().(string); ok {
		return sse.ParseByteSize(s)
	}
	return int(v.ToInteger()), nil
}

// stringList reads an array of strings.
func stringList(v sobek.Value) ([]string, error) {
	list, ok := v.Export().([]any)
	if !ok {
		return nil, fmt.Errorf("want an array of strings")
	}
	out := make([]string, len(list))
	for i, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("element %d is not a string", i)
		}
		out[i] = s
	}
	return out, nil
}

// pricing reads {inputPer1M, outputPer1M, perRequest}.
func pricing(v sobek.Value) (*sse.Pricing, error) {
	m, ok := v.Export().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want an object {inputPer1M, outputPer1M, perRequest}")
	}
	p := &sse.Pricing{}
	for k, x := range m {
		f, ok := toFloat(x)
		if !ok {
			return nil, fmt.Errorf("%s must be a number", k)
		}
		switch k {
		case "inputPer1M":
			p.InputPer1M = f
		case "outputPer1M":
			p.OutputPer1M = f
		case "perRequest":
			p.PerRequest = f
		default:
			return nil, fmt.Errorf("unknown key %q; want inputPer1M, outputPer1M, perRequest", k)
		}
	}
	return p, nil
}

func toFloat(x any) (float64, bool) {
	switch n := x.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}
