package output

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/result"
)

func init() { register("result", newResult) }

// Result writes the run's mergeable result (see package result) to a file
// when the run stops, also after SIGINT or SIGTERM: `-o result=PATH`. The
// results of the runners of one test merge with `usefullatency merge`.
// While the run goes on it only notes when each gauge last changed.
type Result struct {
	path     string
	snapshot func(map[string]time.Time) *result.File
	// gaugeTimes is written under the engine lock (AddSamples) and read
	// under it (the snapshot function locks the engine).
	gaugeTimes map[string]time.Time
}

var _ Output = (*Result)(nil)

func newResult(p Params) (Output, error) {
	if p.Arg == "" {
		return nil, errors.New("want -o result=PATH, the file to write the result to")
	}
	if p.Result == nil {
		return nil, errors.New("this command cannot write a result")
	}
	return &Result{path: p.Arg, snapshot: p.Result, gaugeTimes: map[string]time.Time{}}, nil
}

// Description names the output for the banner.
func (r *Result) Description() string { return "result (" + r.path + ")" }

// Start checks that the file's directory takes files: the result itself is
// written at Stop, through a temporary file in that directory.
func (r *Result) Start() error {
	f, err := os.CreateTemp(filepath.Dir(r.path), ".result-check-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// AddSamples notes the time of the last sample pushed to each gauge and
// gauge submetric — the sample whose value the gauge keeps — for merging
// gauges by time.
func (r *Result) AddSamples(samples []metrics.Sample) {
	for i := range samples {
		s := &samples[i]
		if s.Metric.Type != metrics.Gauge {
			continue
		}
		r.gaugeTimes[s.Metric.Name] = s.Time
		for _, sub := range s.Metric.Submetrics {
			if s.Tags.Contains(sub.Selector) {
				r.gaugeTimes[sub.Metric.Name] = s.Time
			}
		}
	}
}

// Stop takes the result and writes it.
func (r *Result) Stop() error {
	return result.WriteFile(r.path, r.snapshot(r.gaugeTimes))
}
