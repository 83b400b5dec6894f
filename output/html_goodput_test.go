package output

import (
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// TestHTMLGoodput shows a bucket's goodput on its card when its requests
// named objectives (usefulsse_good samples), and nothing for a bucket whose
// requests named none.
func TestHTMLGoodput(t *testing.T) {
	r := newStreamRun(t)
	r.m[metrics.ProbeGood] = metrics.ProbeMetric(metrics.ProbeGood).MustRegister(r.reg)
	r.origin = time.Now()
	qa, other := metrics.Tags{"bucket": "qa"}, metrics.Tags{"bucket": "retrieval"}
	var samples []metrics.Sample
	for i := range 8 {
		end := time.Duration(i) * time.Millisecond
		samples = append(samples, r.request(qa, end, false, 2, 5, 100, 200, 300)...)
		samples = append(samples, r.at(metrics.ProbeGood, end, boolValue(i%4 != 0), qa))
		samples = append(samples, r.request(other, end, false, 2, 5, 100, 200, 300)...)
	}
	page := reportOf(t, r.reg, samples)
	if !strings.Contains(page, "8 requests · useful reached <b>100.00%</b> · failed <b>0.00%</b> · good <b>75.00% (") {
		t.Errorf("the qa card lacks its goodput:\n%s", bucketCard(page, "qa"))
	}
	if card := bucketCard(page, "retrieval"); card == "" || strings.Contains(card, "good") {
		t.Errorf("the retrieval card shows a goodput without objectives:\n%s", card)
	}
}

// TestMergedReportGoodput fills a merged result's breakdown into the
// report: the goodput of the whole test, good requests over its duration.
func TestMergedReportGoodput(t *testing.T) {
	reg := metrics.NewRegistry()
	good := metrics.ProbeMetric(metrics.ProbeGood).MustRegister(reg)
	failed := metrics.ProbeMetric(metrics.ProbeFailed).MustRegister(reg)
	b := metrics.NewBreakdown([]string{"bucket"}, good, failed)
	for i := range 40 {
		tags := metrics.Tags{"bucket": "qa"}
		b.Add([]metrics.Sample{{Metric: good, Tags: tags, Value: boolValue(i%4 != 0)}, {Metric: failed, Tags: tags}})
	}
	origin := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a := newAggregate(origin, 20*time.Second)
	fillBuckets(a, b)
	v := buildView(a, reg, origin.Add(20*time.Second))
	if len(v.Buckets) != 1 || v.Buckets[0].Good != "75.00% (1.5/s)" {
		t.Errorf("buckets %+v, want qa with good 75.00%% (1.5/s): 30 good requests in 20 s", v.Buckets)
	}
}

// bucketCard returns the HTML of a bucket's card, from its name to its
// table.
func bucketCard(page, bucket string) string {
	_, after, ok := strings.Cut(page, `<h3 class="bucket-name">`+bucket+`</h3>`)
	if !ok {
		return ""
	}
	card, _, _ := strings.Cut(after, "<table")
	return card
}
