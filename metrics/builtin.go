package metrics

// Builtin holds the metrics every run has, registered under k6's names.
type Builtin struct {
	Checks            *Metric
	GroupDuration     *Metric
	Iterations        *Metric
	IterationDuration *Metric
	DroppedIterations *Metric
	VUs               *Metric
	VUsMax            *Metric
	ScheduleLag       *Metric
	// DataSent and DataReceived are the bytes of the network modules; k6
	// has them in every run.
	DataSent, DataReceived *Metric
}

// RegisterBuiltin registers the built-in metrics in reg and returns them.
func RegisterBuiltin(reg *Registry) *Builtin {
	return &Builtin{
		Checks:            reg.MustNewMetric("checks", Rate),
		GroupDuration:     reg.MustNewMetric("group_duration", Trend, Time),
		Iterations:        reg.MustNewMetric("iterations", Counter),
		IterationDuration: reg.MustNewMetric("iteration_duration", Trend, Time),
		DroppedIterations: reg.MustNewMetric("dropped_iterations", Counter),
		VUs:               reg.MustNewMetric("vus", Gauge),
		VUsMax:            reg.MustNewMetric("vus_max", Gauge),
		ScheduleLag:       reg.MustNewMetric("schedule_lag", Trend, Time),
		DataSent:          reg.MustNewMetric("data_sent", Counter, Data),
		DataReceived:      reg.MustNewMetric("data_received", Counter, Data),
	}
}
