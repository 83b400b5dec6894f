package mock

import (
	"net/http"
)

// writeError answers with status and a one-line JSON error body in the
// dialect's error shape:
//
//	business:  {"error":{"type":"invalid_request","message":"…"}}
//	openai:    {"error":{"message":"…","type":"invalid_request_error","param":null,"code":null}} (also completions)
//	anthropic: {"type":"error","error":{"type":"invalid_request_error","message":"…"}}
//
// The OpenAI shape is the aftersales, openai and anthropic profiles'; the
// vllm, llamacpp and tgi profiles answer the OpenAI and completions routes
// in their server's shape (profile.errorBody).
func writeError(w http.ResponseWriter, p *profile, d Dialect, status int, msg string) {
	if d == Completions {
		d = OpenAI
	}
	typ, code := errorType(d, status)
	var b []byte
	switch {
	case d == OpenAI && p.errorBody != nil:
		b = p.errorBody(b, status, msg)
	case d == OpenAI:
		b = appendString(append(b, `{"error":{"message":`...), msg)
		b = appendString(append(b, `,"type":`...), typ)
		b = append(b, `,"param":null,"code":`...)
		if code == "" {
			b = append(b, "null"...)
		} else {
			b = appendString(b, code)
		}
		b = append(b, "}}\n"...)
	case d == Anthropic:
		b = appendString(append(b, `{"type":"error","error":{"type":`...), typ)
		b = append(appendString(append(b, `,"message":`...), msg), "}}\n"...)
	default:
		b = appendString(append(b, `{"error":{"type":`...), typ)
		b = append(appendString(append(b, `,"message":`...), msg), "}}\n"...)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if status == http.StatusTooManyRequests {
		h.Set("Retry-After", "1")
	}
	w.WriteHeader(status)
	w.Write(b)
}

// errorType returns the dialect's error type (and OpenAI error code) for a
// status.
func errorType(d Dialect, status int) (typ, code string) {
	switch {
	case status == http.StatusBadRequest && d == Business:
		return "invalid_request", ""
	case status == http.StatusBadRequest:
		return "invalid_request_error", ""
	case status == http.StatusTooManyRequests && d == OpenAI:
		return "rate_limit_exceeded", "rate_limit_exceeded"
	case status == http.StatusTooManyRequests && d == Anthropic:
		return "rate_limit_error", ""
	case status == http.StatusTooManyRequests:
		return "rate_limited", ""
	case status == http.StatusServiceUnavailable && d == OpenAI:
		return "server_error", "service_unavailable"
	case status == http.StatusServiceUnavailable && d == Anthropic:
		return "overloaded_error", ""
	case status == http.StatusServiceUnavailable:
		return "unavailable", ""
	case d == OpenAI:
		return "server_error", ""
	case d == Anthropic:
		return "api_error", ""
	}
	return "error", ""
}

// writeHTTPFault answers the http_error fault.
func writeHTTPFault(w http.ResponseWriter, p *profile, d Dialect, status int) {
	msg := "injected fault http_error: " + http.StatusText(status)
	switch status {
	case http.StatusTooManyRequests:
		msg = "injected fault http_error: rate limit reached, retry after 1 s"
	case http.StatusServiceUnavailable:
		msg = "injected fault http_error: the assistant is overloaded, try again later"
	}
	writeError(w, p, d, status, msg)
}
