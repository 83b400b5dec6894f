package chromium

import (
	"fmt"
	"maps"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
)

// traffic follows a page's requests through the protocol's Network events
// and turns each finished one into samples of the four browser_http_* and
// browser_data_* metrics, as k6's browser module reports them:
//
//   - browser_http_req_duration: from requestWillBeSent to loadingFinished
//     (or loadingFailed, or the redirect that ends a hop), from the
//     protocol's monotonic timestamps and not from Go's clock.
//   - browser_http_req_failed: 1 when loading failed (a network error, a
//     blocked request) or the status is outside 200–399, as k6 decides.
//   - browser_data_received: encodedDataLength, the bytes the network
//     delivered for the request (headers and encoded body; 0 for a cache
//     hit).
//   - browser_data_sent: the request line, the headers the network stack
//     sent (requestWillBeSentExtraInfo, else those the page asked for) and
//     the body, counted as HTTP/1.1 text; 0 when a cache answered. HTTP/2
//     and HTTP/3 compress headers, so there the figure is an upper bound.
//
// Each hop of a redirect chain is a request of its own. Requests the page
// cancelled (a navigation away, an aborted fetch) make no samples, nor do
// URLs other than http and https (data:, blob:, chrome:). All four samples
// of a request carry the same tags and the time of its end.
//
// traffic is not safe for concurrent use: the protocol's event loop calls
// it, one event at a time, in the order the browser sent them.
type traffic struct {
	open map[network.RequestID]*exchange
	// wire holds, per request, the headers the network stack reported
	// for each hop not yet finished, oldest first.
	wire map[network.RequestID][]network.Headers
}

// exchange is one request in flight and what is known of its response.
type exchange struct {
	method       string
	url          string
	resourceType string
	headers      network.Headers
	body         int64
	hasBody      bool
	start        cdp.MonotonicTime
	wallStart    time.Time

	responded         bool
	status            int64
	proto             string
	received          float64 // bytes so far, as of the response headers
	fromDiskCache     bool
	fromMemoryCache   bool
	fromPrefetchCache bool
	fromServiceWorker bool
}

func newTraffic() *traffic {
	return &traffic{open: map[network.RequestID]*exchange{}, wire: map[network.RequestID][]network.Headers{}}
}

// requestWillBeSent opens a request. When it is the next hop of a
// redirect, the previous hop ends here and its samples are returned.
func (t *traffic) requestWillBeSent(ev *network.EventRequestWillBeSent) []Sample {
	var out []Sample
	if prev := t.open[ev.RequestID]; prev != nil && ev.RedirectResponse != nil {
		prev.respond(ev.RedirectResponse)
		out = t.finish(ev.RequestID, prev, ev.Timestamp, ev.RedirectResponse.EncodedDataLength, false)
	}
	delete(t.open, ev.RequestID)
	if ev.Request == nil || !measured(ev.Request.URL) {
		delete(t.wire, ev.RequestID)
		return out
	}
	x := &exchange{
		method:       ev.Request.Method,
		url:          ev.Request.URL,
		resourceType: string(ev.Type),
		headers:      ev.Request.Headers,
		hasBody:      ev.Request.HasPostData,
		start:        ev.Timestamp,
		wallStart:    epoch(float64(ev.WallTime)),
	}
	for _, e := range ev.Request.PostDataEntries {
		x.body += int64(len(e.Bytes))
	}
	t.open[ev.RequestID] = x
	return out
}

// requestWillBeSentExtraInfo keeps the headers as the network stack sent
// them. It may come before or after requestWillBeSent.
func (t *traffic) requestWillBeSentExtraInfo(ev *network.EventRequestWillBeSentExtraInfo) {
	t.wire[ev.RequestID] = append(t.wire[ev.RequestID], ev.Headers)
}

// responseReceived records the response of a request.
func (t *traffic) responseReceived(ev *network.EventResponseReceived) {
	if x := t.open[ev.RequestID]; x != nil && ev.Response != nil {
		x.respond(ev.Response)
	}
}

// requestServedFromCache marks a request the memory cache answered.
func (t *traffic) requestServedFromCache(ev *network.EventRequestServedFromCache) {
	if x := t.open[ev.RequestID]; x != nil {
		x.fromMemoryCache = true
	}
}

// loadingFinished ends a request that loaded.
func (t *traffic) loadingFinished(ev *network.EventLoadingFinished) []Sample {
	x := t.open[ev.RequestID]
	if x == nil {
		return nil
	}
	return t.finish(ev.RequestID, x, ev.Timestamp, ev.EncodedDataLength, false)
}

// loadingFailed ends a request that failed to load; a cancelled one is
// dropped.
func (t *traffic) loadingFailed(ev *network.EventLoadingFailed) []Sample {
	x := t.open[ev.RequestID]
	if x == nil {
		return nil
	}
	if ev.Canceled {
		delete(t.open, ev.RequestID)
		delete(t.wire, ev.RequestID)
		return nil
	}
	return t.finish(ev.RequestID, x, ev.Timestamp, x.received, true)
}

// finish closes the request and returns its four samples.
func (t *traffic) finish(id network.RequestID, x *exchange, end cdp.MonotonicTime, received float64, failed bool) []Sample {
	delete(t.open, id)
	headers := x.headers
	if hops := t.wire[id]; len(hops) > 0 {
		headers = hops[0]
		if len(hops) == 1 {
			delete(t.wire, id)
		} else {
			t.wire[id] = hops[1:]
		}
	}
	var sent float64
	if !x.cached() {
		sent = float64(requestSize(x.method, x.url, headers, x.bodySize(headers)))
	}
	took := max(float64(end-x.start)*1000, 0)
	at := x.wallStart.Add(time.Duration(took * float64(time.Millisecond)))
	var fail float64
	if failed || x.status < 200 || x.status > 399 {
		fail = 1
	}
	tags := x.tags()
	return []Sample{
		{Metric: MetricHTTPReqDuration, Value: took, Time: at, Tags: tags},
		{Metric: MetricHTTPReqFailed, Value: fail, Time: at, Tags: maps.Clone(tags)},
		{Metric: MetricDataReceived, Value: max(received, 0), Time: at, Tags: maps.Clone(tags)},
		{Metric: MetricDataSent, Value: sent, Time: at, Tags: maps.Clone(tags)},
	}
}

// respond records a response (the final one, or a redirect's).
func (x *exchange) respond(r *network.Response) {
	x.responded = true
	x.status = r.Status
	x.proto = r.Protocol
	x.received = r.EncodedDataLength
	x.fromDiskCache = r.FromDiskCache
	x.fromPrefetchCache = r.FromPrefetchCache
	x.fromServiceWorker = r.FromServiceWorker
}

// cached reports whether a cache answered, so nothing went on the wire.
func (x *exchange) cached() bool {
	return x.fromDiskCache || x.fromMemoryCache || x.fromPrefetchCache
}

// bodySize is the size of the request body: the post data the protocol
// reported, or the Content-Length header when the data was too long to
// report.
func (x *exchange) bodySize(headers network.Headers) int64 {
	if x.body > 0 || !x.hasBody {
		return x.body
	}
	for k, v := range headers {
		if strings.EqualFold(k, "Content-Length") {
			n, _ := strconv.ParseInt(fmt.Sprint(v), 10, 64)
			return max(n, 0)
		}
	}
	return 0
}

// tags are k6's tags of a request's samples. status is 0 when no response
// came.
func (x *exchange) tags() map[string]string {
	kind := x.resourceType
	if kind == "" {
		kind = string(network.ResourceTypeOther)
	}
	tags := map[string]string{
		"url":                 x.url,
		"name":                x.url,
		"method":              x.method,
		"status":              strconv.FormatInt(x.status, 10),
		"resource_type":       kind,
		"from_cache":          strconv.FormatBool(x.fromDiskCache || x.fromMemoryCache),
		"from_prefetch_cache": strconv.FormatBool(x.fromPrefetchCache),
		"from_service_worker": strconv.FormatBool(x.fromServiceWorker),
	}
	if x.proto != "" {
		tags["proto"] = x.proto
	}
	return tags
}

// requestSize counts a request as HTTP/1.1 text: "METHOD target
// HTTP/1.1\r\n", "name: value\r\n" per header (HTTP/2 pseudo-headers such
// as ":path" are part of the request line), "\r\n", then the body.
func requestSize(method, rawURL string, headers network.Headers, body int64) int64 {
	target := rawURL
	if u, err := url.Parse(rawURL); err == nil {
		target = u.RequestURI()
	}
	n := len(method) + 1 + len(target) + len(" HTTP/1.1\r\n")
	for k, v := range headers {
		if strings.HasPrefix(k, ":") {
			continue
		}
		n += len(k) + len(": ") + len(fmt.Sprint(v)) + len("\r\n")
	}
	return int64(n+len("\r\n")) + body
}

// measured reports whether requests to rawURL go over the network: http
// and https only.
func measured(rawURL string) bool {
	scheme, _, ok := strings.Cut(rawURL, ":")
	return ok && (strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https"))
}

// epoch converts the protocol's seconds since 1970 to a time.
func epoch(seconds float64) time.Time {
	return time.Unix(0, int64(seconds*float64(time.Second)))
}
