package output

import (
	"math"
	"strconv"

	"github.com/usefullatency/usefullatency/compare"
)

// The forest plot's geometry, in SVG user units (the SVG scales to the page
// width).
const (
	fpWidth      = 960.0
	fpPlotLeft   = 330.0 // row labels on the left
	fpPlotRight  = 750.0 // the difference and its interval on the right
	fpTop        = 26.0  // tick labels above the rows
	fpRow        = 20.0  // one row's height
	fpBottom     = 30.0  // the direction labels below the rows
	fpLabelChars = 46    // longer labels are cut, the full one in a tooltip
	fpMaxExtent  = 1.0   // the axis ends at ±100%; longer intervals end in an arrow
)

// forestView is the SVG drawing of the forest plot: per row, the relative
// difference new vs base as a point, its confidence interval as a line, on
// the shaded band of changes smaller than the minimum effect.
type forestView struct {
	Width, Height       float64
	PlotLeft, PlotRight float64
	ZeroX               float64
	AxisY, GridBottom   float64
	NoteX               float64
	Ticks               []wfTick
	Rows                []forestRow
}

// forestRow is one row of the plot. Class is the verdict's colour
// (fp-regressed, fp-improved, fp-same); the geometry is set only when Drawn.
type forestRow struct {
	Label, Title     string
	Y                float64 // the top of the row's band
	CY, TextY        float64 // the centre line and the text's baseline
	Class            string
	Drawn            bool
	BandX, BandW     float64 // the ±effect band; BandW 0 when unknown
	Low, High, Point float64 // x of the interval's ends and of the difference
	ClipLow          bool    // the interval goes on beyond the axis' left end
	ClipHigh         bool    // … right end
	Dashed           bool    // too small to decide
	Ungated          bool    // --fail-on leaves it out of the exit code
	Note             string  // "+6.2% [+3.1%, +9.4%]"
}

// buildForest lays the rows out, in the report's order (most significant
// first), on one axis of relative differences symmetric around 0. It
// returns nil when there is no row.
func buildForest(r *compare.Report) *forestView {
	if len(r.Rows) == 0 {
		return nil
	}
	extent := 0.0
	for _, row := range r.Rows {
		for _, v := range []float64{row.RelLow, row.RelHigh, row.Rel, bandHalf(row)} {
			if finite(v) {
				extent = math.Max(extent, math.Abs(v))
			}
		}
	}
	extent = math.Min(extent*1.05, fpMaxExtent)
	step := niceStep(math.Max(extent, 0.01) / 3)
	extent = step * math.Ceil(math.Max(extent, 0.01)/step-1e-9)

	f := &forestView{
		Width: fpWidth, PlotLeft: fpPlotLeft, PlotRight: fpPlotRight,
		AxisY: fpTop - 10, NoteX: fpPlotRight + 14,
	}
	x := func(rel float64) float64 {
		rel = math.Max(-extent, math.Min(extent, rel))
		return fpPlotLeft + (rel+extent)/(2*extent)*(fpPlotRight-fpPlotLeft)
	}
	f.ZeroX = x(0)
	for v := -extent; v <= extent*(1+1e-9); v += step {
		f.Ticks = append(f.Ticks, wfTick{X: x(v), Label: tickPercent(v, step)})
	}
	for i, row := range r.Rows {
		f.Rows = append(f.Rows, forestRowOf(row, fpTop+float64(i)*fpRow, extent, x))
	}
	f.GridBottom = fpTop + float64(len(r.Rows))*fpRow
	f.Height = f.GridBottom + fpBottom
	return f
}

// forestRowOf draws one row whose band starts at y; x maps a relative
// difference within ±extent to the plot.
func forestRowOf(row compare.Row, y, extent float64, x func(float64) float64) forestRow {
	label := metricName(row) + " " + row.Stat
	if row.Bucket != "" {
		label = row.Bucket + " · " + label
	}
	fr := forestRow{
		Label: cut(label, fpLabelChars), Title: row.Metric + " " + row.Stat,
		Y: y, CY: y + fpRow/2, TextY: y + fpRow/2 + 4,
		Class:   "fp-" + verdictClass(row.Verdict),
		Dashed:  row.Undecided,
		Ungated: !row.Gated,
	}
	if h := bandHalf(row); finite(h) && h > 0 {
		lo, hi := x(-h), x(h)
		fr.BandX, fr.BandW = lo, hi-lo
	}
	if !finite(row.Rel) || !finite(row.RelLow) || !finite(row.RelHigh) {
		fr.Note = "base 0: " + compare.FormatDiff(row, row.Diff) + " " + compare.FormatInterval(row)
		return fr
	}
	fr.Drawn = true
	fr.Low, fr.High, fr.Point = x(row.RelLow), x(row.RelHigh), x(row.Rel)
	fr.ClipLow, fr.ClipHigh = row.RelLow < -extent, row.RelHigh > extent
	fr.Note = compare.FormatRel(row.Rel) + " " + relCI(row)
	return fr
}

// bandHalf is the row's minimum effect as a relative difference: the
// relative effect itself, or the absolute one over the base; NaN when the
// base is 0.
func bandHalf(row compare.Row) float64 {
	e := row.Effect
	if e.Relative > 0 {
		return e.Relative
	}
	if e.Absolute > 0 && row.Base != 0 && finite(row.Base) {
		return e.Absolute / math.Abs(row.Base)
	}
	return math.NaN()
}

// verdictClass is the CSS class of a verdict: regressed, improved or same.
func verdictClass(v compare.Verdict) string {
	switch v {
	case compare.Regressed:
		return "regressed"
	case compare.Improved:
		return "improved"
	}
	return "same"
}

// tickPercent labels a tick of the relative axis: "−10%", "0", "+10%", with
// as many decimals as step needs.
func tickPercent(v, step float64) string {
	if math.Abs(v) < step/1e6 {
		return "0"
	}
	decimals := max(0, int(math.Ceil(-math.Log10(step*100)-1e-9)))
	s := strconv.FormatFloat(math.Abs(v)*100, 'f', decimals, 64) + "%"
	if v < 0 {
		return "−" + s
	}
	return "+" + s
}
