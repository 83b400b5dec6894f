package summary

import (
	"sort"
	"strconv"
	"strings"

	"github.com/usefullatency/usefullatency/metrics"
)

// block is one titled group of metric rows in TOTAL RESULTS.
type block struct {
	title string
	rows  []row
}

// blockTitles are the metric blocks in display order; WEBSOCKET follows
// NETWORK, as in k6 v1, and GRPC comes last.
var blockTitles = []string{"CUSTOM", "HTTP", "STREAMING", "EXECUTION", "NETWORK", "WEBSOCKET", "GRPC"}

// executionMetrics are the built-in metrics of the EXECUTION block.
var executionMetrics = map[string]bool{
	"iterations": true, "iteration_duration": true, "dropped_iterations": true,
	"vus": true, "vus_max": true, "schedule_lag": true, "group_duration": true,
}

// wsMetrics are k6's WebSocket metrics, the WEBSOCKET block.
var wsMetrics = map[string]bool{
	"ws_connecting": true, "ws_session_duration": true, "ws_sessions": true,
	"ws_ping": true, "ws_msgs_sent": true, "ws_msgs_received": true,
}

// grpcMetrics are k6's gRPC metrics, the GRPC block.
var grpcMetrics = map[string]bool{
	"grpc_req_duration": true, "grpc_streams": true,
	"grpc_streams_msgs_sent": true, "grpc_streams_msgs_received": true,
}

// fullOnlyMetrics are the built-in metrics the compact summary leaves out
// of TOTAL RESULTS, as k6 v1 does: the phases of an HTTP request and the
// duration of groups. Their thresholds are still shown.
var fullOnlyMetrics = map[string]bool{
	"http_req_blocked": true, "http_req_connecting": true, "http_req_tls_handshaking": true,
	"http_req_sending": true, "http_req_waiting": true, "http_req_receiving": true,
	"group_duration": true,
}

// checksMetric is the built-in rate of check results, shown as
// checks_total/succeeded/failed rather than in a block.
const checksMetric = "checks"

// blockOf returns the title of the block a top-level metric belongs to, or
// "" for the checks metric.
func blockOf(name string) string {
	switch {
	case name == checksMetric:
		return ""
	case strings.HasPrefix(name, "http_"):
		return "HTTP"
	case strings.HasPrefix(name, metrics.ProbePrefix):
		return "STREAMING"
	case executionMetrics[name]:
		return "EXECUTION"
	case name == "data_sent" || name == "data_received":
		return "NETWORK"
	case wsMetrics[name]:
		return "WEBSOCKET"
	case grpcMetrics[name]:
		return "GRPC"
	}
	return "CUSTOM"
}

// metricBlocks returns the non-empty blocks of TOTAL RESULTS. Metrics are
// sorted by name, each followed by its shown submetrics, sorted by name and
// labelled "{ k:v }". A metric is shown when it or one of its submetrics has
// samples or thresholds; in compact mode, fullOnlyMetrics are not.
func metricBlocks(in Input, mode Mode) []block {
	byTitle := make(map[string][]row)
	for _, m := range topLevel(in.Metrics) {
		title := blockOf(m.Name)
		subs := shownSubmetrics(m)
		if title == "" || (!shown(m) && len(subs) == 0) || (mode == Compact && fullOnlyMetrics[m.Name]) {
			continue
		}
		byTitle[title] = append(byTitle[title], metricRow(m, m.Name, in))
		for _, sub := range subs {
			byTitle[title] = append(byTitle[title], metricRow(sub, "  "+subLabel(sub), in))
		}
	}
	var out []block
	for _, title := range blockTitles {
		if rows := byTitle[title]; len(rows) > 0 {
			out = append(out, block{title: title, rows: rows})
		}
	}
	return out
}

// topLevel returns the metrics of ms that are not submetrics, sorted by name.
func topLevel(ms []*metrics.Metric) []*metrics.Metric {
	var out []*metrics.Metric
	for _, m := range ms {
		if m != nil && m.Parent == nil {
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// shownSubmetrics returns the submetrics of m with samples or thresholds,
// sorted by name.
func shownSubmetrics(m *metrics.Metric) []*metrics.Metric {
	var out []*metrics.Metric
	for _, sub := range m.Submetrics {
		if sub.Metric != nil && shown(sub.Metric) {
			out = append(out, sub.Metric)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// subLabel returns the label of a submetric: its selector as "{ k:v }".
func subLabel(m *metrics.Metric) string {
	sel := m.Name
	if i := strings.IndexByte(sel, '{'); i >= 0 {
		sel = strings.TrimSuffix(sel[i+1:], "}")
	}
	return "{ " + sel + " }"
}

// writeBlocks writes blocks at depth, aligned together, each followed by a
// blank line.
func writeBlocks(w *writer, depth int, blocks []block) {
	var all []row
	for _, b := range blocks {
		all = append(all, b.rows...)
	}
	t := measure(all)
	for _, b := range blocks {
		w.line(depth, b.title)
		for _, r := range b.rows {
			w.line(depth, t.line(r))
		}
		w.blank()
	}
}

// metricRow returns the row of m labelled name: a counter's total and rate
// per second, a gauge's value, min and max, a rate's percentage and "P out of
// T", a trend's stats.
func metricRow(m *metrics.Metric, name string, in Input) row {
	v := func(x float64) string { return FormatValue(x, m.Contains, in.TimeUnit) }
	switch s := m.Sink.(type) {
	case *metrics.CounterSink:
		return row{name: name, cells: []string{v(s.Sum), v(s.Rate(in.Duration)) + "/s"}}
	case *metrics.GaugeSink:
		return row{name: name, cells: []string{v(s.Value), "min=" + v(s.Min), "max=" + v(s.Max)}}
	case *metrics.RateSink:
		return row{name: name, cells: []string{FormatPercent(s.Rate()), outOf(s.Trues, s.Total)}}
	case *metrics.TrendSink:
		return trendRow(s, m.Contains, name, in)
	}
	return row{name: name, cells: []string{""}}
}

// trendRow returns the row of a trend: one "stat=value" cell per trend stat.
// The count is a plain number whatever the trend contains.
func trendRow(s *metrics.TrendSink, vt metrics.ValueType, name string, in Input) row {
	r := row{name: name}
	for _, c := range trendColumns(in.trendStats()) {
		x, _ := c.stat.Compute(s, in.Duration)
		text := FormatValue(x, vt, in.TimeUnit)
		if c.stat.Kind == metrics.StatCount {
			text = FormatNumber(x)
		}
		r.labels = append(r.labels, c.name+"=")
		r.cells = append(r.cells, text)
	}
	return r
}

// outOf returns "P out of T".
func outOf(passes, total int64) string {
	return strconv.FormatInt(passes, 10) + " out of " + strconv.FormatInt(total, 10)
}
