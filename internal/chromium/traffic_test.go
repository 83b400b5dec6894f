package chromium

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// wall is the wall time of the synthetic requests' start, in seconds.
const wall = 1_700_000_000.0

func sent(id, method, rawURL string, at float64, headers network.Headers) *network.EventRequestWillBeSent {
	return &network.EventRequestWillBeSent{
		RequestID: network.RequestID(id),
		Request:   &network.Request{URL: rawURL, Method: method, Headers: headers},
		Timestamp: cdp.MonotonicTime(at),
		WallTime:  cdp.TimeSinceEpoch(wall),
		Type:      network.ResourceTypeScript,
	}
}

func responded(id string, status int64) *network.EventResponseReceived {
	return &network.EventResponseReceived{RequestID: network.RequestID(id), Response: &network.Response{Status: status, Protocol: "http/1.1", EncodedDataLength: 100}}
}

func finished(id string, at, bytes float64) *network.EventLoadingFinished {
	return &network.EventLoadingFinished{RequestID: network.RequestID(id), Timestamp: cdp.MonotonicTime(at), EncodedDataLength: bytes}
}

// byMetric indexes one request's samples.
func byMetric(t *testing.T, samples []Sample) map[string]Sample {
	t.Helper()
	out := map[string]Sample{}
	for _, s := range samples {
		if _, dup := out[s.Metric]; dup {
			t.Fatalf("two %s samples in %+v", s.Metric, samples)
		}
		out[s.Metric] = s
	}
	if len(out) != 4 {
		t.Fatalf("want the 4 request metrics, got %+v", samples)
	}
	return out
}

func TestTrafficFinishedRequest(t *testing.T) {
	tr := newTraffic()
	headers := network.Headers{"Accept": "*/*"}
	if out := tr.requestWillBeSent(sent("1", "GET", "http://x.test/a.js?v=1", 10.0, headers)); out != nil {
		t.Fatalf("samples before the end: %+v", out)
	}
	// The network stack reports the headers it really sent.
	tr.requestWillBeSentExtraInfo(&network.EventRequestWillBeSentExtraInfo{RequestID: "1", Headers: network.Headers{"Accept": "*/*", "Host": "x.test"}})
	tr.responseReceived(responded("1", 404))
	m := byMetric(t, tr.loadingFinished(finished("1", 10.2505, 1234)))

	if d := m[MetricHTTPReqDuration].Value; math.Abs(d-250.5) > 1e-6 {
		t.Errorf("duration %v ms, want 250.5 from the monotonic timestamps", d)
	}
	if f := m[MetricHTTPReqFailed].Value; f != 1 {
		t.Errorf("404 failed=%v, want 1", f)
	}
	if r := m[MetricDataReceived].Value; r != 1234 {
		t.Errorf("received %v, want encodedDataLength 1234", r)
	}
	// "GET /a.js?v=1 HTTP/1.1\r\n" + "Accept: */*\r\n" + "Host: x.test\r\n" + "\r\n"
	want := float64(len("GET /a.js?v=1 HTTP/1.1\r\n") + len("Accept: */*\r\n") + len("Host: x.test\r\n") + 2)
	if s := m[MetricDataSent].Value; s != want {
		t.Errorf("sent %v, want %v", s, want)
	}
	end := time.Unix(0, int64(wall*1e9)).Add(250500 * time.Microsecond)
	tags := m[MetricHTTPReqDuration].Tags
	for k, v := range map[string]string{"url": "http://x.test/a.js?v=1", "name": "http://x.test/a.js?v=1", "method": "GET", "status": "404",
		"proto": "http/1.1", "resource_type": "Script", "from_cache": "false", "from_prefetch_cache": "false", "from_service_worker": "false"} {
		if tags[k] != v {
			t.Errorf("tag %s=%q, want %q", k, tags[k], v)
		}
	}
	for _, s := range m {
		if !s.Time.Equal(end) {
			t.Errorf("%s at %v, want the end %v", s.Metric, s.Time, end)
		}
	}
	m[MetricHTTPReqDuration].Tags["url"] = "changed"
	if m[MetricDataSent].Tags["url"] == "changed" {
		t.Error("samples share one tag map")
	}
	if len(tr.open) != 0 || len(tr.wire) != 0 {
		t.Errorf("state left behind: %v %v", tr.open, tr.wire)
	}
}

func TestTrafficOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events func(tr *traffic) []Sample
		// want is the failed value and status tag; n is the number of requests
		// (0: no samples).
		failed float64
		status string
		n      int
	}{
		{"ok", func(tr *traffic) []Sample {
			tr.requestWillBeSent(sent("1", "GET", "https://x.test/", 1, nil))
			tr.responseReceived(responded("1", 204))
			return tr.loadingFinished(finished("1", 2, 10))
		}, 0, "204", 1},
		{"server error", func(tr *traffic) []Sample {
			tr.requestWillBeSent(sent("1", "GET", "https://x.test/", 1, nil))
			tr.responseReceived(responded("1", 503))
			return tr.loadingFinished(finished("1", 2, 10))
		}, 1, "503", 1},
		{"network error", func(tr *traffic) []Sample {
			tr.requestWillBeSent(sent("1", "GET", "https://x.test/", 1, nil))
			return tr.loadingFailed(&network.EventLoadingFailed{RequestID: "1", Timestamp: 2, ErrorText: "net::ERR_CONNECTION_REFUSED"})
		}, 1, "0", 1},
		{"cancelled", func(tr *traffic) []Sample {
			tr.requestWillBeSent(sent("1", "GET", "https://x.test/", 1, nil))
			return tr.loadingFailed(&network.EventLoadingFailed{RequestID: "1", Timestamp: 2, Canceled: true})
		}, 0, "", 0},
		{"data URL", func(tr *traffic) []Sample {
			tr.requestWillBeSent(sent("1", "GET", "data:image/png;base64,AAAA", 1, nil))
			tr.responseReceived(responded("1", 200))
			return tr.loadingFinished(finished("1", 2, 10))
		}, 0, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := tc.events(newTraffic())
			if tc.n == 0 {
				if len(out) != 0 {
					t.Fatalf("want no samples, got %+v", out)
				}
				return
			}
			m := byMetric(t, out)
			if f := m[MetricHTTPReqFailed].Value; f != tc.failed {
				t.Errorf("failed=%v, want %v", f, tc.failed)
			}
			if s := m[MetricHTTPReqFailed].Tags["status"]; s != tc.status {
				t.Errorf("status tag %q, want %q", s, tc.status)
			}
		})
	}
}

func TestTrafficRedirectIsTwoRequests(t *testing.T) {
	tr := newTraffic()
	tr.requestWillBeSent(sent("1", "GET", "http://x.test/old", 1, nil))
	hop := sent("1", "GET", "http://x.test/new", 1.1, nil)
	hop.RedirectResponse = &network.Response{Status: 302, EncodedDataLength: 80}
	first := byMetric(t, tr.requestWillBeSent(hop))
	tr.responseReceived(responded("1", 200))
	second := byMetric(t, tr.loadingFinished(finished("1", 1.3, 500)))

	if u, s := first[MetricHTTPReqDuration].Tags["url"], first[MetricHTTPReqDuration].Tags["status"]; u != "http://x.test/old" || s != "302" {
		t.Errorf("first hop %s %s", u, s)
	}
	if d := first[MetricHTTPReqDuration].Value; math.Abs(d-100) > 1e-6 {
		t.Errorf("first hop took %v ms, want 100 (until the redirect)", d)
	}
	if f, r := first[MetricHTTPReqFailed].Value, first[MetricDataReceived].Value; f != 0 || r != 80 {
		t.Errorf("first hop failed=%v received=%v", f, r)
	}
	if u, d := second[MetricHTTPReqDuration].Tags["url"], second[MetricHTTPReqDuration].Value; u != "http://x.test/new" || math.Abs(d-200) > 1e-6 {
		t.Errorf("second hop %s took %v ms", u, d)
	}
}

func TestTrafficCacheHitSendsNothing(t *testing.T) {
	tr := newTraffic()
	tr.requestWillBeSent(sent("1", "GET", "http://x.test/logo.png", 1, network.Headers{"Accept": "image/*"}))
	tr.requestServedFromCache(&network.EventRequestServedFromCache{RequestID: "1"})
	tr.responseReceived(responded("1", 200))
	m := byMetric(t, tr.loadingFinished(finished("1", 1.001, 0)))
	if s := m[MetricDataSent].Value; s != 0 {
		t.Errorf("a memory-cache hit sent %v bytes", s)
	}
	if c := m[MetricDataSent].Tags["from_cache"]; c != "true" {
		t.Errorf("from_cache=%q", c)
	}
}

func TestTrafficBodyCounts(t *testing.T) {
	tr := newTraffic()
	ev := sent("1", "POST", "http://x.test/api", 1, network.Headers{"Content-Type": "text/plain"})
	ev.Request.HasPostData = true
	ev.Request.PostDataEntries = []*network.PostDataEntry{{Bytes: make([]byte, 700)}, {Bytes: make([]byte, 300)}}
	tr.requestWillBeSent(ev)
	tr.responseReceived(responded("1", 201))
	m := byMetric(t, tr.loadingFinished(finished("1", 2, 10)))
	want := float64(len("POST /api HTTP/1.1\r\n")+len("Content-Type: text/plain\r\n")+2) + 1000
	if s := m[MetricDataSent].Value; s != want {
		t.Errorf("sent %v, want %v", s, want)
	}

	// Too long to report: the protocol says there is a body but not what.
	tr = newTraffic()
	ev = sent("2", "PUT", "http://x.test/big", 1, network.Headers{"content-length": "1000000"})
	ev.Request.HasPostData = true
	tr.requestWillBeSent(ev)
	m = byMetric(t, tr.loadingFinished(finished("2", 2, 10)))
	if s := m[MetricDataSent].Value; s < 1_000_000 || s > 1_000_100 {
		t.Errorf("sent %v, want the Content-Length and the head", s)
	}
}

func TestNetworkSamples(t *testing.T) {
	const cssDelay = 150 * time.Millisecond
	css := "/*" + strings.Repeat("x", 5000) + "*/"
	html := `<!doctype html><link rel=icon href="data:,"><link rel=stylesheet href="/style.css">
<img src="/missing.png">
<script>fetch('/api', {method: 'POST', body: 'x'.repeat(1000)})</script>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method + " " + r.URL.Path {
		case "GET /":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, html)
		case "GET /style.css":
			time.Sleep(cssDelay) // the deliberate wait the duration must include
			w.Header().Set("Content-Type", "text/css")
			io.WriteString(w, css)
		case "POST /api":
			io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusCreated)
			io.WriteString(w, "created")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	b, rec := launchObserved(t)
	p := newPage(t, b)
	before := time.Now()
	if err := p.Goto(context.Background(), srv.URL); err != nil {
		t.Fatal(err)
	}
	eventually.True(t, "the four requests finish", func() bool {
		return len(rec.where(MetricHTTPReqDuration, nil)) >= 4
	})
	p.Close()
	after := time.Now()

	type want struct {
		method, status, kind string
		failed               float64
		minReceived          int
		minSent              float64
	}
	wants := map[string]want{
		srv.URL + "/":            {"GET", "200", "Document", 0, len(html), 50},
		srv.URL + "/style.css":   {"GET", "200", "Stylesheet", 0, len(css), 50},
		srv.URL + "/missing.png": {"GET", "404", "Image", 1, len("404 page not found"), 50},
		srv.URL + "/api":         {"POST", "201", "Fetch", 0, len("created"), 1000},
	}
	for _, metric := range []string{MetricHTTPReqDuration, MetricHTTPReqFailed, MetricDataReceived, MetricDataSent} {
		if got := rec.where(metric, nil); len(got) != len(wants) {
			t.Errorf("%d %s samples, want %d: %+v", len(got), metric, len(wants), got)
		}
	}
	for url, w := range wants {
		tags := map[string]string{"url": url, "method": w.method, "status": w.status, "resource_type": w.kind, "from_cache": "false"}
		took := rec.one(t, MetricHTTPReqDuration, tags)
		if took.Time.Before(before) || took.Time.After(after) {
			t.Errorf("%s ended at %v, outside the test's %v–%v", url, took.Time, before, after)
		}
		if took.Value <= 0 || took.Value > float64(after.Sub(before).Milliseconds()) {
			t.Errorf("%s took %.2f ms, the whole test %v", url, took.Value, after.Sub(before))
		}
		if f := rec.one(t, MetricHTTPReqFailed, tags).Value; f != w.failed {
			t.Errorf("%s failed=%v, want %v", url, f, w.failed)
		}
		if r := rec.one(t, MetricDataReceived, tags).Value; r < float64(w.minReceived) {
			t.Errorf("%s received %v bytes, want at least the body's %d", url, r, w.minReceived)
		}
		if s := rec.one(t, MetricDataSent, tags).Value; s < w.minSent {
			t.Errorf("%s sent %v bytes, want at least %v", url, s, w.minSent)
		}
	}
	css1 := rec.one(t, MetricHTTPReqDuration, map[string]string{"url": srv.URL + "/style.css"})
	if css1.Value < float64(cssDelay.Milliseconds()) {
		t.Errorf("style.css took %.2f ms, less than the server's %v", css1.Value, cssDelay)
	}
}
