package metrics

import "time"

// ThresholdConfig is one threshold as a script declares it: the expression
// and the object-form flags.
type ThresholdConfig struct {
	Source         string
	AbortOnFail    bool
	DelayAbortEval time.Duration
}

// Threshold is a parsed threshold expression bound to a metric.
type Threshold struct {
	ThresholdConfig
	// Failed is true once the last evaluation did not pass.
	Failed bool
}
