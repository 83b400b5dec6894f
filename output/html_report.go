package output

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/summary"
)

// percentileNames and percentileValues are the percentiles the report
// shows, as the summary's "where the time goes" does.
var (
	percentileNames  = []string{"p50", "p95", "p99"}
	percentileValues = []float64{0.50, 0.95, 0.99}
)

// reportView is everything the page template shows. Strings in it are
// plain text: html/template escapes them where they are placed.
type reportView struct {
	Started    string
	Duration   string
	Cards      []card
	Thresholds []thresholdRow
	Columns    []string
	Buckets    []bucketView
	Charts     []chartSeries // the charts over time
	Failed     string        // the name of the failed-streams Rate
	Waterfall  *waterfallView
	Checks     []checkRow
	WindowText string
	Data       chartData
	Health     *healthView // the load generator's health; nil without its metrics
}

// card is one headline number.
type card struct {
	Label, Value, Class string
}

// thresholdRow is one threshold with its final state.
type thresholdRow struct {
	Metric, Source, Value string
	Pass                  bool
}

// bucketView is one bucket of "where the time goes": its rates and, per
// percentile, the formatted time of each column ("-" when never reached).
type bucketView struct {
	Name                          string
	Requests                      int64
	UsefulReached, Failed         string
	Good                          string // "97.50% (3.1/s)"; "" when no request named objectives
	Rows                          []percentileRow
	percentiles                   [][]*float64 // [percentile][column] ms
	requestsFailed, requestsTotal int64
	reachedTrues, reachedTotal    int64
}

// percentileRow is one percentile of a bucket.
type percentileRow struct {
	Label string
	Cells []string
}

// checkRow is one check's passes and fails.
type checkRow struct {
	Group, Name  string
	Passes, Fail int64
	Rate         string
	OK           bool
}

// chartData is the page's JSON data for the charts over time: window start
// times in seconds since the run started, per-second counts, and per chart
// key and bucket the percentiles of each window (null where the window had no
// sample).
type chartData struct {
	Window  float64                                     `json:"window_s"`
	T       []float64                                   `json:"t"`
	Buckets []string                                    `json:"buckets"`
	Latency map[string]map[string]map[string][]*float64 `json:"latency"`
	Load    loadSeries                                  `json:"load"`
}

// loadSeries are the per-window rates, per second.
type loadSeries struct {
	Started    []float64  `json:"started"`
	Dropped    []float64  `json:"dropped"`
	Failed     []float64  `json:"failed"`
	HTTPFailed []float64  `json:"http_failed"`
	VUs        []*float64 `json:"vus"`
}

// buildView turns the aggregate and the registry's final threshold state
// into the page's data; end is when the run stopped.
func buildView(a *aggregate, reg *metrics.Registry, end time.Time) reportView {
	v := reportView{
		Started:  a.origin.Format("2006-01-02 15:04:05 MST"),
		Duration: roundDuration(end.Sub(a.origin)).String(),
		Columns:  momentLabels(),
		Charts:   overTime,
		Failed:   metrics.ProbeFailed,
	}
	v.Thresholds = thresholdRows(reg)
	v.Buckets = bucketViews(a, end.Sub(a.origin))
	v.Waterfall = buildWaterfall(v.Buckets)
	v.Checks = checkRows(a)
	v.Data = buildChartData(a)
	v.WindowText = a.width.String()
	v.Cards = cards(a, v)
	v.Health = buildHealth(a.health)
	return v
}

// roundDuration rounds d to milliseconds below a second, to tenths of a
// second above.
func roundDuration(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(100 * time.Millisecond)
}

// thresholdRows lists every threshold of every metric and submetric, by
// metric name, in declaration order within a metric.
func thresholdRows(reg *metrics.Registry) []thresholdRow {
	if reg == nil {
		return nil
	}
	var ms []*metrics.Metric
	for _, m := range reg.All() {
		ms = append(ms, m)
		for _, sub := range m.Submetrics {
			ms = append(ms, sub.Metric)
		}
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	var rows []thresholdRow
	for _, m := range ms {
		for _, t := range m.Thresholds {
			rows = append(rows, thresholdRow{Metric: m.Name, Source: t.Source, Value: thresholdValue(m, t), Pass: !t.Failed})
		}
	}
	return rows
}

// thresholdValue formats the aggregate a threshold read at its last
// evaluation the way the text summary does: "p(95)=148.21ms", a rate as a
// percentage, a counter's rate per second with "/s".
func thresholdValue(m *metrics.Metric, t *metrics.Threshold) string {
	v := t.LastValue
	var text string
	switch {
	case m.Type == metrics.Rate:
		text = summary.FormatPercent(v)
	case t.Stat.Kind == metrics.StatCount && m.Type == metrics.Trend:
		text = summary.FormatNumber(v)
	case t.Stat.Kind == metrics.StatRate:
		text = summary.FormatValue(v, m.Contains, "") + "/s"
	default:
		text = summary.FormatValue(v, m.Contains, "")
	}
	return t.Stat.String() + "=" + text
}

// bucketViews computes each bucket's exact percentiles, buckets sorted by
// name; d is the run's duration, for the good requests per second.
func bucketViews(a *aggregate, d time.Duration) []bucketView {
	names := make([]string, 0, len(a.buckets))
	for n := range a.buckets {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]bucketView, 0, len(names))
	for _, n := range names {
		b := a.buckets[n]
		bv := bucketView{
			Name: n, Requests: b.failed.Total,
			UsefulReached:  summary.FormatPercent(b.usefulReached.Rate()),
			Failed:         summary.FormatPercent(b.failed.Rate()),
			requestsFailed: b.failed.Trues, requestsTotal: b.failed.Total,
			reachedTrues: b.usefulReached.Trues, reachedTotal: b.usefulReached.Total,
		}
		if b.good.Total > 0 {
			perSecond := 0.0
			if d > 0 {
				perSecond = float64(b.good.Trues) / d.Seconds()
			}
			bv.Good = summary.FormatGoodput(b.good.Rate(), perSecond)
		}
		for i, p := range percentileValues {
			row := percentileRow{Label: percentileNames[i]}
			var values []*float64
			for _, m := range moments {
				s := b.times[m.Label]
				if s.Empty() {
					row.Cells = append(row.Cells, "-")
					values = append(values, nil)
					continue
				}
				ms := s.P(p)
				row.Cells = append(row.Cells, summary.FormatTime(ms, ""))
				values = append(values, &ms)
			}
			bv.Rows = append(bv.Rows, row)
			bv.percentiles = append(bv.percentiles, values)
		}
		out = append(out, bv)
	}
	return out
}

// checkRows lists the checks in the order they first ran.
func checkRows(a *aggregate) []checkRow {
	out := make([]checkRow, 0, len(a.order))
	for _, k := range a.order {
		c := a.checks[k]
		out = append(out, checkRow{
			Group: groupPath(k.group), Name: k.name,
			Passes: c.Trues, Fail: c.Total - c.Trues,
			Rate: summary.FormatPercent(c.Rate()), OK: c.Trues == c.Total,
		})
	}
	return out
}

// groupPath shows a group tag ("::outer::inner") as "outer › inner"; the
// root group is "".
func groupPath(tag string) string {
	return strings.ReplaceAll(strings.TrimPrefix(tag, "::"), "::", " › ")
}

// buildChartData turns the windows into chart series. The series end with
// the last window that saw a sample.
func buildChartData(a *aggregate) chartData {
	secs := a.width.Seconds()
	d := chartData{Window: secs, Latency: map[string]map[string]map[string][]*float64{}}
	seen := map[string]bool{}
	for _, w := range a.windows {
		for k := range w.latency {
			seen[k.bucket] = true
		}
	}
	for b := range seen {
		d.Buckets = append(d.Buckets, b)
	}
	sort.Slice(d.Buckets, func(i, j int) bool {
		// The catch-all bucket is drawn last.
		if (d.Buckets[i] == otherBucket) != (d.Buckets[j] == otherBucket) {
			return d.Buckets[j] == otherBucket
		}
		return d.Buckets[i] < d.Buckets[j]
	})
	for _, c := range overTime {
		d.Latency[c.Key] = map[string]map[string][]*float64{}
		for _, b := range d.Buckets {
			d.Latency[c.Key][b] = map[string][]*float64{}
		}
	}
	for i := range a.windows {
		w := &a.windows[i]
		d.T = append(d.T, float64(i)*secs)
		d.Load.Started = append(d.Load.Started, w.started/secs)
		d.Load.Dropped = append(d.Load.Dropped, w.dropped/secs)
		d.Load.Failed = append(d.Load.Failed, w.failed/secs)
		d.Load.HTTPFailed = append(d.Load.HTTPFailed, w.httpFailed/secs)
		d.Load.VUs = append(d.Load.VUs, optional(w.vus, w.hasVUs))
		for _, c := range overTime {
			for _, b := range d.Buckets {
				h := w.latency[latencyKey{c.Key, b}]
				var qs []float64
				if h != nil {
					qs = h.quantiles(percentileValues...)
				}
				for j, p := range percentileNames {
					var v *float64
					if h != nil {
						v = optional(qs[j], true)
					}
					d.Latency[c.Key][b][p] = append(d.Latency[c.Key][b][p], v)
				}
			}
		}
	}
	return d
}

// optional returns &v when ok and v is finite, else nil (JSON null).
func optional(v float64, ok bool) *float64 {
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// cards computes the headline numbers.
func cards(a *aggregate, v reportView) []card {
	var reqs, failed, reached, reachedTotal int64
	for _, b := range v.Buckets {
		reqs += b.requestsTotal
		failed += b.requestsFailed
		reached += b.reachedTrues
		reachedTotal += b.reachedTotal
	}
	var started, dropped float64
	for _, w := range a.windows {
		started += w.started
		dropped += w.dropped
	}
	out := []card{{Label: "duration", Value: v.Duration}}
	if reqs > 0 {
		out = append(out,
			card{Label: "streams", Value: fmt.Sprint(reqs)},
			card{Label: "useful reached", Value: ratio(reached, reachedTotal), Class: passClass(reached == reachedTotal)},
			card{Label: "failed", Value: ratio(failed, reqs), Class: passClass(failed == 0)},
		)
	}
	out = append(out,
		card{Label: "iterations", Value: summary.FormatNumber(started)},
		card{Label: "dropped iterations", Value: summary.FormatNumber(dropped), Class: passClass(dropped == 0)},
	)
	if n := len(v.Thresholds); n > 0 {
		pass := 0
		for _, t := range v.Thresholds {
			if t.Pass {
				pass++
			}
		}
		out = append(out, card{Label: "thresholds passed", Value: fmt.Sprintf("%d / %d", pass, n), Class: passClass(pass == n)})
	}
	if len(v.Checks) > 0 {
		var p, total int64
		for _, c := range v.Checks {
			p += c.Passes
			total += c.Passes + c.Fail
		}
		out = append(out, card{Label: "checks passed", Value: ratio(p, total), Class: passClass(p == total)})
	}
	return out
}

// ratio formats n/total as a percentage; "-" when total is 0.
func ratio(n, total int64) string {
	if total == 0 {
		return "-"
	}
	return summary.FormatPercent(float64(n) / float64(total))
}

func passClass(ok bool) string {
	if ok {
		return "pass"
	}
	return "fail"
}
