package output

import (
	"math"

	"github.com/usefullatency/usefullatency/summary"
)

// The waterfall's geometry, in SVG user units (the SVG scales to the page
// width).
const (
	wfWidth     = 960.0
	wfPlotLeft  = 190.0 // bucket names and percentile labels on the left
	wfPlotRight = 700.0 // the milestone note on the right
	wfAxis      = 26.0  // tick labels above the plot
	wfBar       = 16.0  // bar height
	wfRowGap    = 5.0
	wfGroupGap  = 16.0
	wfNameChars = 19 // longer bucket names are cut, the full name in a tooltip
)

// wfStages are the waterfall's segments: each runs from the previous
// milestone reached to this one. Stage 0, the server's queue time, starts at
// the request; "wait" is the rest of the wait for the first event.
var wfStages = []struct{ column, class, label string }{
	{"queue", "seg-queue", "queue (server-reported)"},
	{"first_event", "seg-wait", "request → first event"},
	{"first_text", "seg-first", "first event → first text"},
	{"useful", "seg-useful", "first text → useful"},
	{"complete", "seg-done", "useful → complete"},
}

// waterfallView is the SVG drawing of "where the time goes": per bucket, one
// stacked bar per percentile from the request to complete.
type waterfallView struct {
	Width, Height       float64
	PlotLeft, PlotRight float64
	AxisY, GridBottom   float64
	Ticks               []wfTick
	Groups              []wfGroup
}

// wfTick is one time label on the axis, with its grid line.
type wfTick struct {
	X     float64
	Label string
}

// wfGroup is one bucket's rows.
type wfGroup struct {
	Name, FullName string
	Y              float64 // baseline of the name
	Rows           []wfRow
	Separator      float64 // y of the line under the group
}

// wfRow is one percentile's bar.
type wfRow struct {
	Label      string
	Y, TextY   float64
	Segments   []wfSegment
	Note       string
	NoteX      float64
	MissingAll bool
}

// wfSegment is one stage of a bar; Title is its tooltip.
type wfSegment struct {
	X, W         float64
	Class, Title string
}

// buildWaterfall lays the buckets' percentiles out on one time axis from 0
// to a round number above the largest milestone. It returns nil when no
// bucket has a time.
func buildWaterfall(buckets []bucketView) *waterfallView {
	top := 0.0
	for _, b := range buckets {
		for _, row := range b.percentiles {
			for _, v := range row {
				if v != nil && *v > top {
					top = *v
				}
			}
		}
	}
	if len(buckets) == 0 {
		return nil
	}
	step := niceStep(top / 5)
	axisMax := math.Max(step, math.Ceil(top/step)*step)
	scale := func(ms float64) float64 { return wfPlotLeft + ms/axisMax*(wfPlotRight-wfPlotLeft) }
	w := &waterfallView{Width: wfWidth, PlotLeft: wfPlotLeft, PlotRight: wfPlotRight, AxisY: 14}
	for t := 0.0; t <= axisMax+step/2; t += step {
		w.Ticks = append(w.Ticks, wfTick{X: scale(t), Label: summary.FormatTime(t, "")})
	}
	y := wfAxis
	for _, b := range buckets {
		g := wfGroup{Name: cut(b.Name, wfNameChars), FullName: b.Name, Y: y + wfBar - 4}
		for i, values := range b.percentiles {
			row := wfRow{Label: percentileNames[i], Y: y, TextY: y + wfBar - 4}
			row.Segments, row.Note = bar(b.Name, percentileNames[i], values, scale)
			row.NoteX = wfPlotRight + 8
			row.MissingAll = len(row.Segments) == 0
			g.Rows = append(g.Rows, row)
			y += wfBar + wfRowGap
		}
		g.Separator = y + wfGroupGap/2 - wfRowGap/2
		w.Groups = append(w.Groups, g)
		y += wfGroupGap
	}
	w.GridBottom = y - wfGroupGap
	w.Height = y
	return w
}

// bar returns the segments of one percentile's bar (values per moment, nil
// when never reached) and its note, "useful 410.21ms · complete 431.06ms". A
// stage starts where the latest milestone before it ended, so a percentile
// that is lower than an earlier one (they are computed separately) draws
// nothing rather than going backwards.
func bar(bucket, pct string, values []*float64, scale func(float64) float64) ([]wfSegment, string) {
	var segs []wfSegment
	start := 0.0
	for i, st := range wfStages {
		v := values[i]
		if v == nil {
			continue
		}
		end := *v
		if end > start {
			segs = append(segs, wfSegment{
				X: scale(start), W: scale(end) - scale(start), Class: st.class,
				Title: bucket + " " + pct + ": " + st.label + " " + summary.FormatTime(start, "") + " → " + summary.FormatTime(end, ""),
			})
		}
		start = math.Max(start, end)
	}
	note := ""
	for _, c := range []struct {
		label string
		v     *float64
	}{{"useful", values[3]}, {"complete", values[4]}} {
		if c.v == nil {
			continue
		}
		if note != "" {
			note += " · "
		}
		note += c.label + " " + summary.FormatTime(*c.v, "")
	}
	return segs, note
}

// niceStep returns the smallest of 1, 2 or 5 times a power of ten that is at
// least x; 1 for x ≤ 0.
func niceStep(x float64) float64 {
	if !(x > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// cut shortens s to n runes, marking the cut with "…".
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
