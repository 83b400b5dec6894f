package k6http_test

import (
	"testing"

	_ "github.com/usefullatency/usefullatency" // registers k6/x/usefulsse

	"github.com/usefullatency/usefullatency/metrics"
)

func TestMetricSamplesAndTags(t *testing.T) {
	srv := newServer(t)
	r := mustRun(t, `import { group } from 'k6';
export default function () {
  http.post(__ENV.BASE + '/echo', 'abc', {tags: {name: 'Echo', team: 'a'}});
  group('g', () => { http.get(__ENV.BASE + '/status/404'); });
}`, map[string]string{"BASE": srv.URL})
	names := []string{
		"http_reqs", "http_req_duration", "http_req_blocked", "http_req_connecting", "http_req_tls_handshaking",
		"http_req_sending", "http_req_waiting", "http_req_receiving", "http_req_failed", "data_sent", "data_received",
	}
	for _, n := range names {
		if got := len(r.of(n)); got != 2 {
			t.Errorf("%s: %d samples, want 2", n, got)
		}
	}
	first, second := r.of("http_req_duration")[0], r.of("http_req_duration")[1]
	wantFirst := metrics.Tags{
		"scenario": "default", "name": "Echo", "team": "a", "method": "POST", "url": srv.URL + "/echo",
		"status": "200", "expected_response": "true", "proto": "HTTP/1.1",
	}
	if !sameTags(first.Tags, wantFirst) {
		t.Errorf("first request tags = %v, want %v", first.Tags, wantFirst)
	}
	wantSecond := metrics.Tags{
		"scenario": "default", "group": "::g", "name": srv.URL + "/status/404", "method": "GET",
		"url": srv.URL + "/status/404", "status": "404", "expected_response": "false", "proto": "HTTP/1.1",
		"error_code": "1404",
	}
	if !sameTags(second.Tags, wantSecond) {
		t.Errorf("second request tags = %v, want %v", second.Tags, wantSecond)
	}
	if f := r.of("http_req_failed"); f[0].Value != 0 || f[1].Value != 1 {
		t.Errorf("http_req_failed = %v, %v, want 0, 1", f[0].Value, f[1].Value)
	}
	if s := r.of("data_sent"); s[0].Value < 3+40 || s[1].Value < 40 {
		t.Errorf("data_sent = %v, %v: less than a request line and a body", s[0].Value, s[1].Value)
	}
	if c := r.of("http_req_connecting"); c[0].Value <= 0 || c[1].Value != 0 {
		t.Errorf("http_req_connecting = %v, %v: want a connect, then a reused connection", c[0].Value, c[1].Value)
	}
	dur := r.of("http_req_duration")[0].Metric
	if len(dur.Submetrics) != 1 || dur.Submetrics[0].Metric.Name != "http_req_duration{expected_response:true}" {
		t.Fatalf("submetrics = %v", dur.Submetrics)
	}
	if n := dur.Submetrics[0].Metric.Sink.(*metrics.TrendSink).Count(); n != 1 {
		t.Errorf("expected_response:true submetric has %d samples, want 1", n)
	}
}

// sameTags reports whether a and b hold the same pairs.
func sameTags(a, b metrics.Tags) bool {
	if len(a) != len(b) {
		return false
	}
	return a.Contains(b)
}

// The probe registers http_reqs, http_req_failed, data_sent and
// data_received too: both modules in one script must agree on their types
// and feed the same metrics.
func TestMetricsSharedWithTheProbe(t *testing.T) {
	srv := newServer(t)
	r := mustRun(t, `import sse from 'k6/x/usefulsse';
export default function () { http.get(__ENV.BASE + '/multi'); }`, map[string]string{"BASE": srv.URL})
	if reqs := r.of("http_reqs"); len(reqs) != 1 || reqs[0].Metric.Type != metrics.Counter {
		t.Errorf("http_reqs = %+v", reqs)
	}
}
