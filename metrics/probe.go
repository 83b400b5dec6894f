package metrics

import "fmt"

// ProbePrefix begins the name of every metric the streaming probe (the
// k6/x/usefulsse module) emits: "usefulsse_".
const ProbePrefix = "usefulsse_"

// ProbeLayer is the tag that tells where a moment was seen: "ui" on the
// samples of the UI probe (usefulsse.watch, on the page), none on the
// stream probe's (on the socket). The per-bucket breakdown keeps each
// layer's samples in a row of their own.
const ProbeLayer = "layer"

// The names of the probe's metrics, as PRODUCT.md lists them. This file is
// the one place they are spelled: the module registers them, and the summary,
// the outputs and the runner read them, through these names. Times are in
// milliseconds, counted from the moment the request was sent unless said.
const (
	ProbeQueue      = ProbePrefix + "queue"       // Trend (time): the queue time the server reported.
	ProbeHeaders    = ProbePrefix + "headers"     // Trend (time): until the response headers.
	ProbeFirstEvent = ProbePrefix + "first_event" // Trend (time): until the first event.
	ProbeFirstText  = ProbePrefix + "first_text"  // Trend (time): until the first visible text.
	ProbeUseful     = ProbePrefix + "useful"      // Trend (time): until the useful predicate held.
	ProbeComplete   = ProbePrefix + "complete"    // Trend (time): until the stream ended.
	ProbeMaxGap     = ProbePrefix + "max_gap"     // Trend (time): the longest silence after the first event.
	ProbeMark       = ProbePrefix + "mark"        // Trend (time): until a named mark; tag mark.

	// The set-up of a connection, on requests that opened one: durations,
	// not times from the send.
	ProbeConnecting     = ProbePrefix + "connecting"      // Trend (time): the TCP connect.
	ProbeTLSHandshaking = ProbePrefix + "tls_handshaking" // Trend (time): the TLS handshake; https only.

	ProbeUsefulReached = ProbePrefix + "useful_reached" // Rate: useful before the stream ended.
	ProbeFailed        = ProbePrefix + "failed"         // Rate: the request failed.
	ProbeGood          = ProbePrefix + "good"           // Rate (goodput): succeeded and met every objective of its slo param; no sample without one.

	ProbeEvents      = ProbePrefix + "events"       // Counter: events received.
	ProbeHeartbeats  = ProbePrefix + "heartbeats"   // Counter: heartbeat events (comments, pings).
	ProbeEmptyEvents = ProbePrefix + "empty_events" // Counter: events with no visible text or state.
	ProbeTokens      = ProbePrefix + "tokens"       // Counter: tokens the stream reported; tag kind.
	ProbeCost        = ProbePrefix + "cost"         // Counter: the tokens' cost at the script's pricing.

	// The load generator's health: when these are high, the timings above
	// may be late (docs/probe.md, "Client health").
	ProbeReadLag         = ProbePrefix + "read_lag"         // Trend (time): per request, the longest wait between the kernel receiving bytes and the runner reading them.
	ProbeCoalescedEvents = ProbePrefix + "coalesced_events" // Counter: events that arrived in one read with the next event; their stamp may be late.
	ProbeClientCPU       = ProbePrefix + "client_cpu"       // Gauge: the runner's process CPU, as a fraction of all cores, every second.
)

// ClientSaturated is the client_cpu value from which the runner counts as
// saturated: its reads and timers may run late.
const ClientSaturated = 0.9

// MetricSpec declares a metric: its name, its type and what its values are.
type MetricSpec struct {
	Name     string
	Type     MetricType
	Contains ValueType
}

// MustRegister registers the metric in reg, or returns the one already
// there. It panics when reg holds the name with another type.
func (s MetricSpec) MustRegister(reg *Registry) *Metric {
	return reg.MustNewMetric(s.Name, s.Type, s.Contains)
}

// probeMetrics is the table behind ProbeMetrics.
var probeMetrics = [...]MetricSpec{
	{ProbeQueue, Trend, Time},
	{ProbeHeaders, Trend, Time},
	{ProbeFirstEvent, Trend, Time},
	{ProbeFirstText, Trend, Time},
	{ProbeUseful, Trend, Time},
	{ProbeComplete, Trend, Time},
	{ProbeMaxGap, Trend, Time},
	{ProbeMark, Trend, Time},
	{ProbeConnecting, Trend, Time},
	{ProbeTLSHandshaking, Trend, Time},
	{ProbeUsefulReached, Rate, Default},
	{ProbeFailed, Rate, Default},
	{ProbeGood, Rate, Default},
	{ProbeEvents, Counter, Default},
	{ProbeHeartbeats, Counter, Default},
	{ProbeEmptyEvents, Counter, Default},
	{ProbeTokens, Counter, Default},
	{ProbeCost, Counter, Default},
	{ProbeReadLag, Trend, Time},
	{ProbeCoalescedEvents, Counter, Default},
	{ProbeClientCPU, Gauge, Default},
}

// ProbeMetrics returns the probe's metrics in PRODUCT.md's order: the Trends,
// the Rates, then the Counters; then the client health metrics. The slice is the caller's.
func ProbeMetrics() []MetricSpec {
	return append([]MetricSpec(nil), probeMetrics[:]...)
}

// ProbeMetric returns the declaration of the probe metric called name. It
// panics when the probe has no such metric: callers pass the constants above.
func ProbeMetric(name string) MetricSpec {
	for _, s := range probeMetrics {
		if s.Name == name {
			return s
		}
	}
	panic(fmt.Sprintf("metrics: %q is not a probe metric", name))
}

// Moment is one milestone of a stream that the summary's "where the time
// goes" table and the HTML report show, per bucket, as percentiles in ms.
type Moment struct {
	// Label is the moment's column heading: "first_event".
	Label string
	// Metric is the name of the Trend (time, ms) holding the moment.
	Metric string
}

// probeMoments is the table behind ProbeMoments.
var probeMoments = [...]Moment{
	{"queue", ProbeQueue},
	{"first_event", ProbeFirstEvent},
	{"first_text", ProbeFirstText},
	{"useful", ProbeUseful},
	{"complete", ProbeComplete},
}

// ProbeMoments returns the moments in the order a user lives them: queue,
// first_event, first_text, useful, complete. The slice is the caller's.
func ProbeMoments() []Moment {
	return append([]Moment(nil), probeMoments[:]...)
}

// ProbeBreakdownNames returns the metrics a per-bucket breakdown of the probe
// aggregates: the moments' Trends, then the ProbeUsefulReached, ProbeFailed
// and ProbeGood Rates.
func ProbeBreakdownNames() []string {
	names := make([]string, 0, len(probeMoments)+3)
	for _, m := range probeMoments {
		names = append(names, m.Metric)
	}
	return append(names, ProbeUsefulReached, ProbeFailed, ProbeGood)
}
