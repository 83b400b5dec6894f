package k6http

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/metrics"
)

// debugLog writes the httpDebug option's log lines of one request, as k6
// does: "Request:" and "Response:" records, each followed by the start
// line and headers (and with "full" the body) of every hop, with the
// fields source=http-debug, vu, iter, request_id and the request's tags.
type debugLog struct {
	full bool
	// w receives each record in one Write, so that records of parallel
	// requests do not interleave.
	w io.Writer
	// secs returns the seconds since the run started.
	secs func() int
	// fields are the request's log fields, sorted, without request_id.
	fields []string
}

// newDebugFields returns the fields of a request's debug records: the
// VU, the iteration and the tags.
func newDebugFields(vu, iter int64, tags metrics.Tags) []string {
	f := []string{"source=http-debug", fmt.Sprintf("vu=%d", vu), fmt.Sprintf("iter=%d", iter)}
	for k, v := range tags {
		if k != "source" && k != "vu" && k != "iter" && k != "request_id" && !strings.ContainsAny(k+v, " \n") {
			f = append(f, k+"="+redact.URL(v))
		}
	}
	slices.Sort(f)
	return f
}

// wrap returns rt logging every round trip.
func (d *debugLog) wrap(rt http.RoundTripper) http.RoundTripper {
	return debugTransport{rt: rt, log: d}
}

// debugTransport logs each request and response it carries.
type debugTransport struct {
	rt  http.RoundTripper
	log *debugLog
}

// RoundTrip logs req, sends it, and logs the response. With "full" the
// response body is read here, logged, and handed on from memory.
func (t debugTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	id := requestID()
	t.log.record("Request:", id, dumpRequest(req, t.log.full))
	res, err := t.rt.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	var body []byte
	if t.log.full {
		body, err = io.ReadAll(res.Body)
		res.Body.Close()
		res.Body = io.NopCloser(bytes.NewReader(body))
		if err != nil {
			res.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
		}
	}
	t.log.record("Response:", id, dumpResponse(res, body, t.log.full))
	return res, nil
}

// errReader fails every read with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// record writes one record: the first line carries the fields, the dump
// follows on its own lines.
func (d *debugLog) record(title, id string, dump string) {
	fields := slices.Concat(d.fields, []string{"request_id=" + id})
	slices.Sort(fields)
	line := fmt.Sprintf("INFO[%04d] %s  %s\n%s\n", d.secs(), title, strings.Join(fields, " "), strings.TrimRight(dump, "\n"))
	_, _ = io.WriteString(d.w, line)
}

// requestID returns a random id pairing a request with its response.
func requestID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// dumpRequest returns the request line, headers and (full) body of req,
// secrets masked.
func dumpRequest(req *http.Request, full bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\n", req.Method, redact.URL(req.URL.RequestURI()))
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	fmt.Fprintf(&b, "Host: %s\n", host)
	h := req.Header.Clone()
	if req.ContentLength > 0 && h.Get("Content-Length") == "" {
		h.Set("Content-Length", fmt.Sprint(req.ContentLength))
	}
	writeHeaders(&b, h)
	if full && req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			data, _ := io.ReadAll(body)
			b.WriteString("\n" + redact.Text(string(data)))
		}
	}
	return b.String()
}

// dumpResponse returns the status line, headers and (full) body of res,
// secrets masked.
func dumpResponse(res *http.Response, body []byte, full bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", res.Proto, res.Status)
	writeHeaders(&b, res.Header)
	if full {
		b.WriteString("\n" + redact.Text(string(body)))
	}
	return b.String()
}

// writeHeaders writes h sorted by name, the values of credential headers
// (Authorization, cookies, API keys) masked.
func writeHeaders(b *strings.Builder, h http.Header) {
	for _, name := range slices.Sorted(maps.Keys(h)) {
		for _, v := range h[name] {
			if secretHeader(name) {
				v = redact.Mask
			}
			fmt.Fprintf(b, "%s: %s\n", name, v)
		}
	}
}

// secretHeader reports whether a header's value is a credential.
func secretHeader(name string) bool {
	switch http.CanonicalHeaderKey(name) {
	case "Cookie", "Set-Cookie", "Cookie2", "Set-Cookie2":
		return true
	}
	return redact.SecretParam(name)
}
