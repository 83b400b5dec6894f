package summary

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// streamingRun is a run of the probe over 20 s with two buckets: qa, whose
// 40 requests named objectives (39 met them: 97.5%, 1.95 good per second),
// and retrieval, whose 10 requests named none. A threshold on the qa goodput
// passes.
func streamingRun(t *testing.T) Input {
	r := newRun(t)
	var ms []*metrics.Metric
	for _, name := range metrics.ProbeBreakdownNames() {
		ms = append(ms, metrics.ProbeMetric(name).MustRegister(r.reg))
	}
	b := metrics.NewBreakdown([]string{"bucket", "scenario"}, ms...)
	r.eng.Subscribe(b.Add)
	get := func(name string) *metrics.Metric { return r.reg.Get(name) }
	sub := r.sub(get(metrics.ProbeGood), "bucket:qa")
	request := func(bucket string, i int, good *bool) {
		tags := metrics.Tags{"bucket": bucket, "scenario": "chat"}
		v := float64(i)
		r.push(get(metrics.ProbeFirstEvent), tags, 5+v/10)
		r.push(get(metrics.ProbeFirstText), tags, 150+v)
		r.push(get(metrics.ProbeUseful), tags, 400+10*v)
		r.push(get(metrics.ProbeComplete), tags, 900+10*v)
		r.push(get(metrics.ProbeUsefulReached), tags, 1)
		r.push(get(metrics.ProbeFailed), tags, 0)
		if good != nil {
			r.push(get(metrics.ProbeGood), tags, boolValue(*good))
		}
	}
	for i := range 40 {
		good := i != 39
		request("qa", i, &good)
	}
	for i := range 10 {
		request("retrieval", i, nil)
	}
	threshold(t, sub, "rate>=0.95", 20*time.Second, false)
	in := r.input(20 * time.Second)
	in.Streaming = b
	return in
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestTextStreamingGolden pins the "where the time goes" section with the
// goodput of a bucket whose requests named objectives (and none for the
// bucket whose requests did not), the STREAMING block listing
// usefulsse_good and its threshold.
func TestTextStreamingGolden(t *testing.T) {
	got := Text(streamingRun(t), TextOptions{})
	golden(t, "text_streaming.golden", got)
	for _, want := range []string{
		"qa: 40 requests, useful reached 100.00%, failed 0.00%, good 97.50% (1.95/s)\n",
		"retrieval: 10 requests, useful reached 100.00%, failed 0.00%\n",
		"usefulsse_good{bucket:qa}",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary lacks %q:\n%s", want, got)
		}
	}
	if streaming := totalBlock(got, "STREAMING"); !strings.Contains(streaming, "usefulsse_good") {
		t.Errorf("the STREAMING block lacks usefulsse_good:\n%s", streaming)
	}
}

// totalBlock returns a TOTAL RESULTS block of a text summary, from its title to
// the blank line that ends it.
func totalBlock(text, title string) string {
	_, after, _ := strings.Cut(text, " "+title+"\n")
	b, _, _ := strings.Cut(after, "\n\n")
	return b
}

// TestExportGoodput checks usefulsse_buckets in the export and in
// handleSummary's data: good (the rate) and good_per_second for a bucket
// whose requests named objectives, neither key for the other bucket.
func TestExportGoodput(t *testing.T) {
	in := streamingRun(t)
	got, _ := export(t, in)
	buckets, _ := got["usefulsse_buckets"].(map[string]any)
	qa, _ := buckets["qa"].(map[string]any)
	if qa["good"] != 0.975 || qa["good_per_second"] != 1.95 || qa["requests"] != 40.0 {
		t.Errorf("usefulsse_buckets.qa = %v, want good 0.975, good_per_second 1.95, 40 requests", qa)
	}
	retrieval, _ := buckets["retrieval"].(map[string]any)
	if _, ok := retrieval["good"]; ok || retrieval == nil {
		t.Errorf("usefulsse_buckets.retrieval = %v, want no good", retrieval)
	}
	if _, ok := retrieval["good_per_second"]; ok {
		t.Errorf("usefulsse_buckets.retrieval = %v, want no good_per_second", retrieval)
	}
	data := Data(in)[bucketsKey].(map[string]any)
	if !reflect.DeepEqual(data["qa"].(map[string]any)["good"], 0.975) {
		t.Errorf("handleSummary data usefulsse_buckets.qa = %v", data["qa"])
	}
}
