package output

import (
	"math"
	"sort"
	"strconv"

	"github.com/usefullatency/usefullatency/compare"
	"github.com/usefullatency/usefullatency/metrics"
)

// ecdfMaxPoints bounds the points of one side's curve: a side with more
// distinct values is drawn through this many of its quantiles.
const ecdfMaxPoints = 500

// ecdfBucket is one bucket's charts on the page; Name "" is the rows that
// are not per bucket.
type ecdfBucket struct {
	Name   string
	Charts []ecdfCaption
}

// ecdfCaption is what the page says about one chart: its element's id
// (made here, never from a file's text), the metric, the sides' sizes, the
// gates drawn and the verdicts of the metric's rows.
type ecdfCaption struct {
	ID, Metric, Full string
	BaseN, NewN      string
	Gates            []string
	Rows             []ecdfRowNote
}

// ecdfRowNote is one compared stat of the chart's metric.
type ecdfRowNote struct {
	Stat, Rel, Verdict, Class string
}

// ecdfChart is one chart's data for compare.js: the union of both curves'
// x values, ascending, and each side's ECDF at every one of them.
type ecdfChart struct {
	ID    string     `json:"id"`
	Unit  string     `json:"unit"`
	X     []float64  `json:"x"`
	Base  []float64  `json:"base"`
	New   []float64  `json:"new"`
	Gates []ecdfGate `json:"gates"`
}

// ecdfGate is a threshold drawn on a chart: a vertical line at its target
// and, when it names a percentile (or med, max), a horizontal line at that
// level.
type ecdfGate struct {
	Source string   `json:"source"`
	X      float64  `json:"x"`
	Y      *float64 `json:"y"`
}

// buildECDFs builds one chart per distribution of the report, grouped by
// bucket (sorted by name; the rows without bucket last), the probe's
// moments in the order a user lives them, then other metrics by name.
func buildECDFs(r *compare.Report) ([]ecdfBucket, []ecdfChart) {
	rowsOf := map[string][]compare.Row{}
	for _, row := range r.Rows {
		rowsOf[row.Metric] = append(rowsOf[row.Metric], row)
	}
	keys := make([]string, 0, len(r.Distributions))
	for k := range r.Distributions {
		if len(rowsOf[k]) > 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := rowsOf[keys[i]][0], rowsOf[keys[j]][0]
		if a.Bucket != b.Bucket {
			if (a.Bucket == "") != (b.Bucket == "") {
				return b.Bucket == ""
			}
			return a.Bucket < b.Bucket
		}
		ma, mb := metricName(a), metricName(b)
		if oa, ob := momentOrder(ma), momentOrder(mb); oa != ob {
			return oa < ob
		}
		return ma < mb
	})
	var buckets []ecdfBucket
	var charts []ecdfChart
	for i, k := range keys {
		rows := rowsOf[k]
		first := rows[0]
		d := r.Distributions[k]
		c := ecdfChart{ID: "ecdf-" + strconv.Itoa(i), Unit: first.Unit, Gates: []ecdfGate{}}
		c.X, c.Base, c.New = ecdfTable(ecdfPoints(d[0], ecdfMaxPoints), ecdfPoints(d[1], ecdfMaxPoints))
		caption := ecdfCaption{
			ID: c.ID, Metric: metricName(first), Full: k,
			BaseN: sideCount(len(d[0]), first.BaseRuns), NewN: sideCount(len(d[1]), first.NewRuns),
		}
		for _, src := range r.Gates[k] {
			caption.Gates = append(caption.Gates, src)
			if g, ok := gateLine(src); ok {
				c.Gates = append(c.Gates, g)
			}
		}
		for _, row := range rows {
			caption.Rows = append(caption.Rows, ecdfRowNote{
				Stat: row.Stat, Rel: compare.FormatRel(row.Rel), Verdict: string(row.Verdict), Class: verdictClass(row.Verdict),
			})
		}
		if len(buckets) == 0 || buckets[len(buckets)-1].Name != first.Bucket {
			buckets = append(buckets, ecdfBucket{Name: first.Bucket})
		}
		b := &buckets[len(buckets)-1]
		b.Charts = append(b.Charts, caption)
		charts = append(charts, c)
	}
	return buckets, charts
}

// momentOrder ranks the probe's moments first, in their order.
func momentOrder(name string) int {
	for i, m := range moments {
		if m.Metric == name {
			return i
		}
	}
	return len(moments)
}

// ecdfPoint is one point of an ECDF: F(X) = Y, the share of values ≤ X.
type ecdfPoint struct{ X, Y float64 }

// ecdfPoints returns the points of the ECDF of sorted (ascending; non-finite
// values are left out) where it steps: at each distinct value when there
// are at most limit of them, else at the smallest value and at limit−1
// evenly spaced quantiles, each Y the share of values ≤ X.
func ecdfPoints(sorted []float64, limit int) []ecdfPoint {
	vs := make([]float64, 0, len(sorted))
	for _, v := range sorted {
		if finite(v) {
			vs = append(vs, v)
		}
	}
	n := len(vs)
	if n == 0 {
		return nil
	}
	// last returns the index of the last value equal to vs[i].
	last := func(i int) int {
		return sort.Search(n, func(j int) bool { return vs[j] > vs[i] }) - 1
	}
	var idx []int
	if distinct(vs, limit) {
		for i := 0; i < n; i = last(i) + 1 {
			idx = append(idx, last(i))
		}
	} else {
		idx = append(idx, last(0))
		for j := 1; j < limit; j++ {
			i := last(int(math.Ceil(float64(j)*float64(n)/float64(limit-1))) - 1)
			if i > idx[len(idx)-1] {
				idx = append(idx, i)
			}
		}
	}
	// The page keeps 7 significant digits of X and 6 decimals of Y; values
	// that become equal make one step.
	out := make([]ecdfPoint, 0, len(idx))
	for _, i := range idx {
		p := ecdfPoint{X: roundSignificant(vs[i], 7), Y: round(float64(i+1)/float64(n), 6)}
		if k := len(out) - 1; k >= 0 && out[k].X == p.X {
			out[k] = p
			continue
		}
		out = append(out, p)
	}
	return out
}

// roundSignificant rounds v to digits significant digits, so that it
// prints short: 1234.56789 to 4 digits is 1235.
func roundSignificant(v float64, digits int) float64 {
	if v == 0 || !finite(v) {
		return v
	}
	k := digits - 1 - int(math.Floor(math.Log10(math.Abs(v))))
	if k >= 0 {
		p := math.Pow(10, float64(k))
		return math.Round(v*p) / p
	}
	p := math.Pow(10, float64(-k))
	return math.Round(v/p) * p
}

// distinct reports whether sorted has at most limit distinct values.
func distinct(sorted []float64, limit int) bool {
	count := 0
	for i, v := range sorted {
		if i == 0 || v != sorted[i-1] {
			count++
			if count > limit {
				return false
			}
		}
	}
	return true
}

// ecdfTable merges two curves into uPlot's columns: the ascending union of
// their x and each curve's ECDF at every x (0 before its first point; a step
// holds until its next point).
func ecdfTable(a, b []ecdfPoint) (xs, ya, yb []float64) {
	i, j := 0, 0
	var fa, fb float64
	for i < len(a) || j < len(b) {
		x := math.Inf(1)
		if i < len(a) {
			x = a[i].X
		}
		if j < len(b) {
			x = math.Min(x, b[j].X)
		}
		if i < len(a) && a[i].X == x {
			fa = a[i].Y
			i++
		}
		if j < len(b) && b[j].X == x {
			fb = b[j].Y
			j++
		}
		xs, ya, yb = append(xs, x), append(ya, fa), append(yb, fb)
	}
	return xs, ya, yb
}

// gateLine reads a threshold's source as a line on an ECDF of its metric:
// its target on the x axis and the level of its stat (p(N): N/100; med:
// 0.5; max: 1; min and avg: none). Stats that are not a value of the
// distribution (count, rate) draw nothing.
func gateLine(src string) (ecdfGate, bool) {
	th, err := metrics.ParseThreshold(metrics.ThresholdConfig{Source: src})
	if err != nil || !finite(th.Target) {
		return ecdfGate{}, false
	}
	g := ecdfGate{Source: src, X: th.Target}
	level := func(v float64) *float64 { return &v }
	switch th.Stat.Kind {
	case metrics.StatPercentile:
		g.Y = level(th.Stat.Percentile / 100)
	case metrics.StatMed:
		g.Y = level(0.5)
	case metrics.StatMax:
		g.Y = level(1)
	case metrics.StatMin, metrics.StatAvg:
	default:
		return ecdfGate{}, false
	}
	return g, true
}
