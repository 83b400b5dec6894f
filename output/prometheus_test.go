package output

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/golang/snappy"
	"github.com/usefullatency/usefullatency/metrics"
)

// rwSeries is a decoded remote-write time series with one sample.
type rwSeries struct {
	labels []promLabel
	value  float64
	ms     int64
}

// name returns the __name__ label.
func (s rwSeries) name() string { return s.label("__name__") }

func (s rwSeries) label(n string) string {
	for _, l := range s.labels {
		if l.name == n {
			return l.value
		}
	}
	return ""
}

// decodeWriteRequest parses a remote-write WriteRequest with a protobuf
// reader independent of the encoder: it follows wire types, so it also
// rejects a misplaced or mistyped field.
func decodeWriteRequest(t *testing.T, b []byte) []rwSeries {
	t.Helper()
	var out []rwSeries
	for _, f := range protoFields(t, b) {
		if f.num != 1 || f.wire != 2 {
			t.Fatalf("WriteRequest: unexpected field %d (wire type %d)", f.num, f.wire)
		}
		var s rwSeries
		for _, g := range protoFields(t, f.bytes) {
			switch {
			case g.num == 1 && g.wire == 2:
				var l promLabel
				for _, h := range protoFields(t, g.bytes) {
					switch {
					case h.num == 1 && h.wire == 2:
						l.name = string(h.bytes)
					case h.num == 2 && h.wire == 2:
						l.value = string(h.bytes)
					default:
						t.Fatalf("Label: unexpected field %d (wire type %d)", h.num, h.wire)
					}
				}
				s.labels = append(s.labels, l)
			case g.num == 2 && g.wire == 2:
				for _, h := range protoFields(t, g.bytes) {
					switch {
					case h.num == 1 && h.wire == 1:
						s.value = math.Float64frombits(h.varint)
					case h.num == 2 && h.wire == 0:
						s.ms = int64(h.varint)
					default:
						t.Fatalf("Sample: unexpected field %d (wire type %d)", h.num, h.wire)
					}
				}
			default:
				t.Fatalf("TimeSeries: unexpected field %d (wire type %d)", g.num, g.wire)
			}
		}
		out = append(out, s)
	}
	return out
}

type protoField struct {
	num, wire int
	varint    uint64 // wire types 0 and 1
	bytes     []byte // wire type 2
}

func protoFields(t *testing.T, b []byte) []protoField {
	t.Helper()
	var out []protoField
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			t.Fatalf("bad key varint in % x", b)
		}
		b = b[n:]
		f := protoField{num: int(key >> 3), wire: int(key & 7)}
		switch f.wire {
		case 0:
			f.varint, n = binary.Uvarint(b)
			if n <= 0 {
				t.Fatal("bad varint")
			}
			b = b[n:]
		case 1:
			if len(b) < 8 {
				t.Fatal("short fixed64")
			}
			f.varint, b = binary.LittleEndian.Uint64(b), b[8:]
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				t.Fatal("bad length")
			}
			f.bytes, b = b[n:n+int(l)], b[n+int(l):]
		default:
			t.Fatalf("unexpected wire type %d", f.wire)
		}
		out = append(out, f)
	}
	return out
}

// receiver is a remote-write endpoint that decodes every push.
type receiver struct {
	mu      sync.Mutex
	pushes  [][]rwSeries
	headers []http.Header
	status  int
	block   chan struct{} // when set, each push waits for it to close
	// received, when set, gets a value (if it has room) as each push
	// arrives, before it waits for block.
	received chan struct{}
}

func newReceiver(t *testing.T) (*receiver, *httptest.Server) {
	rc := &receiver{status: http.StatusNoContent}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rc.received != nil {
			select {
			case rc.received <- struct{}{}:
			default:
			}
		}
		if rc.block != nil {
			<-rc.block
		}
		body, _ := io.ReadAll(r.Body)
		raw, err := snappy.Decode(nil, body)
		if err != nil {
			t.Errorf("body is not snappy block format: %v", err)
		}
		rc.mu.Lock()
		defer rc.mu.Unlock()
		rc.pushes = append(rc.pushes, decodeWriteRequest(t, raw))
		rc.headers = append(rc.headers, r.Header.Clone())
		w.WriteHeader(rc.status)
		if rc.status != http.StatusNoContent {
			fmt.Fprint(w, "out of order sample\nsecond line")
		}
	}))
	t.Cleanup(srv.Close)
	return rc, srv
}

// last returns the series of the last push keyed by name and sorted
// labels (without __name__).
func (rc *receiver) last(t *testing.T) map[string]rwSeries {
	t.Helper()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.pushes) == 0 {
		t.Fatal("nothing was pushed")
	}
	return byID(rc.pushes[len(rc.pushes)-1])
}

func byID(series []rwSeries) map[string]rwSeries {
	out := map[string]rwSeries{}
	for _, s := range series {
		var parts []string
		for _, l := range s.labels {
			if l.name != "__name__" {
				parts = append(parts, l.name+"="+l.value)
			}
		}
		out[s.name()+"{"+strings.Join(parts, ",")+"}"] = s
	}
	return out
}

func newTestPrometheus(t *testing.T, url string, env map[string]string) *PrometheusRW {
	t.Helper()
	o, err := New("experimental-prometheus-rw="+url, Params{Env: env, Registry: metrics.NewRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	return o.(*PrometheusRW)
}

func TestPrometheusWriteRequestBytes(t *testing.T) {
	var w writeRequest
	w.series([]promLabel{{"__name__", "k6_x_total"}}, 1, 1)
	want := []byte{
		0x0a, 37, // timeseries, 37 bytes
		0x0a, 22, // label, 22 bytes
		0x0a, 8, '_', '_', 'n', 'a', 'm', 'e', '_', '_',
		0x12, 10, 'k', '6', '_', 'x', '_', 't', 'o', 't', 'a', 'l',
		0x12, 11, // sample, 11 bytes
		0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, // value 1.0
		0x10, 1, // timestamp 1 ms
	}
	if !bytes.Equal(w.bytes(), want) {
		t.Errorf("encoded\n% x\nwant\n% x", w.bytes(), want)
	}
}

func TestPrometheusTrendStats(t *testing.T) {
	tests := []struct {
		list, want, err string
	}{
		{"p(99)", "p99", ""},
		{"p(95), p(99.9),avg,min,max,med,count,sum", "p95 p999 avg min max med count sum", ""},
		{"p(90),p(90)", "p90", ""},
		{"p(0),p(100)", "p0 p100", ""},
		{"p(95.0),p(.5),p(099.90)", "p95 p05 p999", ""}, // canonical names: p(95.0) was p950, p(.5) p5
		{"p(95),p(95.00)", "p95", ""},
		{"p(0x1p4)", "", `unknown trend stat "p(0x1p4)"`},
		{"p(101)", "", `unknown trend stat "p(101)"`},
		{"p(1e2)", "", `unknown trend stat "p(1e2)"`},
		{"avg,mean", "", `unknown trend stat "mean"`},
		{"", "", `unknown trend stat ""`},
	}
	for _, tt := range tests {
		t.Run(tt.list, func(t *testing.T) {
			stats, err := parseTrendStats(tt.list)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range stats {
				names = append(names, s.name)
			}
			if got := strings.Join(names, " "); got != tt.want {
				t.Errorf("names = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPrometheusSettings(t *testing.T) {
	cfg, err := promSettings(Params{Env: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.url != "http://localhost:9090/api/v1/write" || cfg.interval != 5*time.Second || len(cfg.stats) != 1 || cfg.stats[0].name != "p99" {
		t.Errorf("defaults = %s every %s, %d stats, want k6's", cfg.url, cfg.interval, len(cfg.stats))
	}
	cfg, err = promSettings(Params{Arg: "http://arg:1/w", Env: map[string]string{
		"K6_PROMETHEUS_RW_SERVER_URL": "http://env:1/w", "K6_PROMETHEUS_RW_PUSH_INTERVAL": "250ms",
		"K6_PROMETHEUS_RW_HTTP_HEADERS": "X-A: 1, X-B:2",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.url != "http://arg:1/w" || cfg.interval != 250*time.Millisecond || cfg.headers["X-A"] != "1" || cfg.headers["X-B"] != "2" {
		t.Errorf("got %s every %s, headers %v; want the argument's URL, 250ms, two headers", cfg.url, cfg.interval, cfg.headers)
	}
	_, err = promSettings(Params{Env: map[string]string{
		"K6_PROMETHEUS_RW_SERVER_URL": "localhost:9090", "K6_PROMETHEUS_RW_PUSH_INTERVAL": "0s",
		"K6_PROMETHEUS_RW_TREND_STATS": "p(99),p99",
	}})
	for _, want := range []string{`server URL "localhost:9090"`, "K6_PROMETHEUS_RW_PUSH_INTERVAL", `unknown trend stat "p99"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v, want it to name %s", err, want)
		}
	}
}

func TestPrometheusLabelNames(t *testing.T) {
	a := newPromAggregator(nil)
	for tag, want := range map[string]string{
		"bucket": "bucket", "error_code": "error_code", "my-tag.x": "my_tag_x", "9lives": "_9lives",
		"__name__": "tag__name__", "ünï": "_n_", "": "_", "Upper_1": "Upper_1",
	} {
		if got := a.labelName(tag); got != want {
			t.Errorf("labelName(%q) = %q, want %q", tag, got, want)
		}
	}
}

// TestPrometheusNamesAndValues pushes one sample per metric type and checks
// every name, label and value as Prometheus receives them.
func TestPrometheusNamesAndValues(t *testing.T) {
	rc, srv := newReceiver(t)
	o := newTestPrometheus(t, srv.URL, map[string]string{
		"K6_PROMETHEUS_RW_TREND_STATS": "p(95),p(99.9),avg,count,sum,min,max,med",
		"K6_PROMETHEUS_RW_USERNAME":    "u", "K6_PROMETHEUS_RW_PASSWORD": "p", "K6_PROMETHEUS_RW_HTTP_HEADERS": "X-Scope-OrgID:team",
	})
	reg := metrics.NewRegistry()
	useful := reg.MustNewMetric("usefulsse_useful", metrics.Trend, metrics.Time)
	plain := reg.MustNewMetric("tokens_per_answer", metrics.Trend)
	reqs := reg.MustNewMetric("http_reqs", metrics.Counter)
	vus := reg.MustNewMetric("vus", metrics.Gauge)
	failed := reg.MustNewMetric("usefulsse_failed", metrics.Rate)
	tags := metrics.Tags{"bucket": "qa", "scenario": "s", "error_code": "", "my-tag": "x"}
	at := time.Now()
	o.AddSamples([]metrics.Sample{
		{Metric: useful, Tags: tags, Time: at, Value: 1500},
		{Metric: useful, Tags: tags, Time: at, Value: 500},
		{Metric: plain, Tags: tags, Time: at, Value: 40},
		{Metric: reqs, Tags: tags, Time: at, Value: 1},
		{Metric: reqs, Tags: tags, Time: at, Value: 1},
		{Metric: vus, Tags: metrics.Tags{}, Time: at, Value: 3},
		{Metric: vus, Tags: metrics.Tags{}, Time: at, Value: 7},
		{Metric: failed, Tags: tags, Time: at, Value: 1},
		{Metric: failed, Tags: tags, Time: at, Value: 0},
		{Metric: failed, Tags: tags, Time: at, Value: 0},
		{Metric: failed, Tags: tags, Time: at, Value: 0},
	})
	o.buf.flushNow()
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	h := rc.headers[0]
	for k, want := range map[string]string{
		"Content-Encoding": "snappy", "Content-Type": "application/x-protobuf", "X-Prometheus-Remote-Write-Version": "0.1.0",
		"Authorization": "Basic dTpw", "X-Scope-Orgid": "team",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	const l = "{bucket=qa,my_tag=x,scenario=s}"
	want := map[string]float64{
		"k6_usefulsse_useful_p95" + l: 1.45, "k6_usefulsse_useful_p999" + l: 1.499,
		"k6_usefulsse_useful_avg" + l: 1, "k6_usefulsse_useful_count" + l: 2, "k6_usefulsse_useful_sum" + l: 2,
		"k6_usefulsse_useful_min" + l: 0.5, "k6_usefulsse_useful_max" + l: 1.5, "k6_usefulsse_useful_med" + l: 1,
		"k6_tokens_per_answer_p95" + l: 40, "k6_tokens_per_answer_p999" + l: 40, "k6_tokens_per_answer_avg" + l: 40,
		"k6_tokens_per_answer_count" + l: 1, "k6_tokens_per_answer_sum" + l: 40, "k6_tokens_per_answer_min" + l: 40,
		"k6_tokens_per_answer_max" + l: 40, "k6_tokens_per_answer_med" + l: 40,
		"k6_http_reqs_total" + l: 2, "k6_vus{}": 7, "k6_usefulsse_failed_rate" + l: 0.25,
	}
	got := rc.last(t)
	for id, v := range want {
		s, ok := got[id]
		if !ok {
			t.Errorf("missing series %s", id)
			continue
		}
		if math.Abs(s.value-v) > 1e-12 {
			t.Errorf("%s = %v, want %v", id, s.value, v)
		}
	}
	for id := range got {
		if _, ok := want[id]; !ok {
			t.Errorf("unexpected series %s", id)
		}
	}
	for id, s := range got {
		if !sort.SliceIsSorted(s.labels, func(i, j int) bool { return s.labels[i].name < s.labels[j].name }) {
			t.Errorf("%s: labels not sorted by name: %v", id, s.labels)
		}
	}
}

// TestPrometheusCumulative checks that every push carries the aggregates
// since the start: a Trend's percentile over all values so far, a
// Counter's running total; and that timestamps only go forward.
func TestPrometheusCumulative(t *testing.T) {
	rc, srv := newReceiver(t)
	o := newTestPrometheus(t, srv.URL, map[string]string{"K6_PROMETHEUS_RW_TREND_STATS": "p(99),count"})
	reg := metrics.NewRegistry()
	useful := reg.MustNewMetric("usefulsse_useful", metrics.Trend, metrics.Time)
	reqs := reg.MustNewMetric("http_reqs", metrics.Counter)
	tags := metrics.Tags{"bucket": "qa"}
	var all metrics.TrendSink
	wantP99, wantTotal := []float64{}, []float64{}
	total := 0.0
	for push := range 3 {
		var batch []metrics.Sample
		for i := range 50 {
			v := float64((push*50+i)*37%1000) + float64(push)*1000 // later pushes are slower
			all.Add(v)
			batch = append(batch, metrics.Sample{Metric: useful, Tags: tags, Value: v},
				metrics.Sample{Metric: reqs, Tags: tags, Value: 1})
			total++
		}
		o.AddSamples(batch)
		o.buf.flushNow()
		wantP99 = append(wantP99, all.P(0.99)/1000)
		wantTotal = append(wantTotal, total)
	}
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	if len(rc.pushes) != 4 {
		t.Fatalf("%d pushes, want 3 and the final one", len(rc.pushes))
	}
	lastMs := int64(0)
	for i, p := range rc.pushes {
		got := byID(p)
		n := min(i, 2)
		if v := got["k6_usefulsse_useful_p99{bucket=qa}"].value; math.Abs(v-wantP99[n]) > 1e-12 {
			t.Errorf("push %d: p99 = %v s, want the cumulative %v s", i, v, wantP99[n])
		}
		if v := got["k6_usefulsse_useful_count{bucket=qa}"].value; v != wantTotal[n] {
			t.Errorf("push %d: count = %v, want %v", i, v, wantTotal[n])
		}
		if v := got["k6_http_reqs_total{bucket=qa}"].value; v != wantTotal[n] {
			t.Errorf("push %d: http_reqs_total = %v, want %v", i, v, wantTotal[n])
		}
		for _, s := range p {
			if s.ms <= lastMs && s.ms != p[0].ms {
				t.Errorf("push %d: timestamp %d not after the previous push's %d", i, s.ms, lastMs)
			}
		}
		lastMs = p[0].ms
	}
}

// TestPrometheusSeriesPerTagSet checks that series are split by tag set and
// that tags sanitised to the same label name make one series.
func TestPrometheusSeriesPerTagSet(t *testing.T) {
	rc, srv := newReceiver(t)
	o := newTestPrometheus(t, srv.URL, nil)
	reqs := metrics.NewRegistry().MustNewMetric("http_reqs", metrics.Counter)
	o.AddSamples([]metrics.Sample{
		{Metric: reqs, Tags: metrics.Tags{"bucket": "qa"}, Value: 1},
		{Metric: reqs, Tags: metrics.Tags{"bucket": "qa", "status": "500"}, Value: 1},
		{Metric: reqs, Tags: metrics.Tags{"bucket": "qa", "status": ""}, Value: 1},
		{Metric: reqs, Tags: metrics.Tags{"a-b": "1"}, Value: 1},
		{Metric: reqs, Tags: metrics.Tags{"a.b": "1"}, Value: 1},
		{Metric: reqs, Tags: metrics.Tags{"a.b": "1", "a-b": "2"}, Value: 1},
	})
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	got := rc.last(t)
	want := map[string]float64{
		"k6_http_reqs_total{bucket=qa}": 2, "k6_http_reqs_total{bucket=qa,status=500}": 1,
		"k6_http_reqs_total{a_b=1}": 2, "k6_http_reqs_total{a_b=2}": 1,
	}
	if len(got) != len(want) {
		t.Errorf("%d series, want %d: %v", len(got), len(want), slices.Sorted(maps.Keys(got)))
	}
	for id, v := range want {
		if got[id].value != v {
			t.Errorf("%s = %v, want %v", id, got[id].value, v)
		}
	}
}

// TestPrometheusAddSamplesNeverBlocks stalls the endpoint during a push and
// checks that adding samples meanwhile returns at once and that none of
// them is lost from the final push.
func TestPrometheusAddSamplesNeverBlocks(t *testing.T) {
	rc, srv := newReceiver(t)
	rc.block, rc.received = make(chan struct{}), make(chan struct{}, 1)
	o := newTestPrometheus(t, srv.URL, map[string]string{"K6_PROMETHEUS_RW_PUSH_INTERVAL": "10ms"})
	reqs := metrics.NewRegistry().MustNewMetric("http_reqs", metrics.Counter)
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	sample := []metrics.Sample{{Metric: reqs, Tags: metrics.Tags{"bucket": "qa"}, Value: 1}}
	o.AddSamples(sample)
	select { // a push is now stuck in the endpoint
	case <-rc.received:
	case <-time.After(10 * time.Second):
		t.Fatal("no push reached the endpoint")
	}
	start := time.Now()
	for range 20000 {
		o.AddSamples(sample)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("adding 20000 samples during a stalled push took %s", d)
	}
	close(rc.block)
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	if v := rc.last(t)["k6_http_reqs_total{bucket=qa}"].value; v != 20001 {
		t.Errorf("final k6_http_reqs_total = %v, want 20001", v)
	}
}

func TestPrometheusStopReportsFailedPushes(t *testing.T) {
	rc, srv := newReceiver(t)
	rc.status = http.StatusBadRequest
	o := newTestPrometheus(t, srv.URL, nil)
	reqs := metrics.NewRegistry().MustNewMetric("http_reqs", metrics.Counter)
	o.AddSamples([]metrics.Sample{{Metric: reqs, Value: 1}})
	o.buf.flushNow()
	err := o.Stop()
	if err == nil {
		t.Fatal("Stop returned no error after failed pushes")
	}
	msg := err.Error()
	if !strings.Contains(msg, "2 of 2 pushes to "+srv.URL+" failed") || !strings.Contains(msg, "400 Bad Request: out of order sample second line") {
		t.Errorf("error = %q, want the count, the URL, the status and the body", msg)
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("error spans several lines: %q", msg)
	}

	o = newTestPrometheus(t, "http://127.0.0.1:1/api/v1/write", nil)
	o.AddSamples([]metrics.Sample{{Metric: reqs, Value: 1}})
	if err := o.Stop(); err == nil || !strings.Contains(err.Error(), "1 of 1 pushes") {
		t.Errorf("unreachable endpoint: Stop error = %v, want one failed push", err)
	}
}

func TestPrometheusNothingMeasuredNothingPushed(t *testing.T) {
	rc, srv := newReceiver(t)
	synctest.Test(t, func(t *testing.T) {
		o := newTestPrometheus(t, srv.URL, map[string]string{"K6_PROMETHEUS_RW_PUSH_INTERVAL": "5ms"})
		// A kept-alive connection's goroutines would wait on the network
		// for good, and the bubble's clock only moves while all its
		// goroutines wait on it: should a push happen, none outlives it.
		o.client.http.Transport.(*http.Transport).DisableKeepAlives = true
		if err := o.Start(); err != nil {
			t.Fatal(err)
		}
		// On the bubble's clock this lets exactly six push intervals pass,
		// however busy the machine.
		time.Sleep(30 * time.Millisecond)
		if err := o.Stop(); err != nil {
			t.Fatal(err)
		}
	})
	if len(rc.pushes) != 0 {
		t.Errorf("%d pushes without any sample, want none", len(rc.pushes))
	}
}

// BenchmarkPrometheusAggregate measures folding one request's probe
// samples (20 samples, 6 tags) into the aggregates: the per-sample cost
// of the output's background work.
func BenchmarkPrometheusAggregate(b *testing.B) {
	reg := metrics.NewRegistry()
	useful := reg.MustNewMetric("usefulsse_useful", metrics.Trend, metrics.Time)
	reqs := reg.MustNewMetric("http_reqs", metrics.Counter)
	tags := metrics.Tags{"bucket": "qa", "scenario": "s", "name": "http://x/chat", "method": "POST", "status": "200", "group": ""}
	batch := make([]metrics.Sample, 20)
	for i := range batch {
		batch[i] = metrics.Sample{Metric: useful, Tags: tags, Value: float64(i)}
		if i%2 == 1 {
			batch[i].Metric = reqs
		}
	}
	a := newPromAggregator(nil)
	b.ReportAllocs()
	for b.Loop() {
		a.add(batch)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(batch)), "ns/sample")
}
