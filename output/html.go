package output

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"html/template"
	"io"
	"strconv"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

func init() { register("html", newHTML) }

// defaultReportName is the file `-o html` writes without an argument.
const defaultReportName = "report.html"

// HTML writes one self-contained HTML report when the run stops (also when
// it was interrupted): thresholds, the per-bucket "where the time goes"
// waterfall, latency percentiles, load and failures over time, and checks.
// `-o html=report.html` names the file; `-o html` writes report.html;
// `-o html=-` writes to stdout. The page loads nothing from the network: its
// style, scripts and chart library are inline, and its
// Content-Security-Policy allows only those.
//
// Samples are aggregated once a second off the engine lock: per time window
// counts and log histograms (the windows widen as the run goes on, at most
// maxWindows), and per bucket every value of the usefulsse times, as the
// summary keeps them.
type HTML struct {
	name string
	out  *sink
	reg  *metrics.Registry
	buf  *buffer
	agg  *aggregate
	// started is set by Start: Stop without Start only writes the page.
	started bool
}

var _ Output = (*HTML)(nil)

func newHTML(p Params) (Output, error) {
	name := p.Arg
	if name == "" {
		name = defaultReportName
	}
	out, err := openSink(name, p.Stdout)
	if err != nil {
		return nil, err
	}
	h := &HTML{name: name, out: out, reg: p.Registry, agg: newAggregate(time.Now(), time.Second)}
	h.buf = newBuffer(time.Second, h.agg.add)
	return h, nil
}

// Description names the output for the banner.
func (h *HTML) Description() string {
	if h.name == "-" {
		return "html (stdout)"
	}
	return "html (" + h.name + ")"
}

// Start starts the time windows and the periodic aggregation.
func (h *HTML) Start() error {
	h.agg.origin = time.Now()
	h.buf.start()
	h.started = true
	return nil
}

// AddSamples buffers samples.
func (h *HTML) AddSamples(s []metrics.Sample) { h.buf.add(s) }

// Stop aggregates the rest and writes the report. The runner calls it after
// the final threshold evaluation, so the thresholds' state is final.
func (h *HTML) Stop() error {
	var err error
	if h.started {
		err = h.buf.stop()
	}
	if e := writeReport(h.out.w, buildView(h.agg, h.reg, time.Now())); err == nil {
		err = e
	}
	if e := h.out.Close(); err == nil {
		err = e
	}
	return err
}

//go:embed report/report.html.tmpl report/style.css report/errors.js report/app.js report/vendor/uPlot.iife.min.js report/vendor/uPlot.min.css
var reportFiles embed.FS

// page is what the template receives: the view and the inline assets.
type page struct {
	View                     reportView
	CSP                      string
	Style                    template.CSS
	ErrorsJS, UPlotJS, AppJS template.JS
}

// The template and the assets are parsed and hashed once.
var (
	reportTemplate = template.Must(template.New("report.html.tmpl").Funcs(template.FuncMap{
		"n": func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) },
	}).ParseFS(reportFiles, "report/report.html.tmpl"))
	reportAssets = loadAssets()
)

// loadAssets reads the inline style and scripts and builds the
// Content-Security-Policy that allows exactly them: no network, no other
// script, no style attribute.
func loadAssets() page {
	read := func(name string) string {
		b, err := reportFiles.ReadFile("report/" + name)
		if err != nil {
			panic(err) // embedded: a missing file is a build error
		}
		return string(b)
	}
	style := read("vendor/uPlot.min.css") + "\n" + read("style.css")
	p := page{
		Style:    template.CSS(style),
		ErrorsJS: template.JS(read("errors.js")),
		UPlotJS:  template.JS(read("vendor/uPlot.iife.min.js")),
		AppJS:    template.JS(read("app.js")),
	}
	p.CSP = "default-src 'none'; img-src data:; style-src " + hash(style) +
		"; script-src " + hash(string(p.ErrorsJS)) + " " + hash(string(p.UPlotJS)) + " " + hash(string(p.AppJS)) +
		"; base-uri 'none'; form-action 'none'"
	return p
}

// hash is the CSP source of an inline element with this text.
func hash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// writeReport renders the page.
func writeReport(w io.Writer, v reportView) error {
	p := reportAssets
	p.View = v
	return reportTemplate.Execute(w, p)
}
