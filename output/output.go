// Package output sends a run's samples to the places dashboards and CI read
// them from: k6's NDJSON and CSV files (and, in sibling files, the other
// output types). Outputs receive every sample the metrics engine ingests;
// they buffer and write in the background, never blocking iterations.
package output

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/result"
)

// Output receives every sample of a run.
type Output interface {
	// Description names the output for the banner, e.g. "json (out.json)".
	Description() string
	// Start opens the output before the first sample.
	Start() error
	// AddSamples receives a batch of samples. It is called with the
	// metrics engine locked, so it must only buffer: never block, never
	// keep the slice (the samples themselves may be kept).
	AddSamples(samples []metrics.Sample)
	// Stop writes what is buffered and closes the output. It is called at
	// the end of the run, also when the run was interrupted.
	Stop() error
}

// Params is what an output is built from.
type Params struct {
	// Type and Arg come from -o type=arg.
	Type, Arg string
	// Env is the process environment (K6_* settings of outputs).
	Env map[string]string
	// Registry holds the run's metrics (thresholds, submetrics).
	Registry *metrics.Registry
	// Stdout is where "-" outputs write.
	Stdout io.Writer
	// Log is where outputs write warnings (WARN lines); nil discards them.
	Log io.Writer
	// APIAddress is the address the run's REST API listens on, "" when
	// it serves none.
	APIAddress string
	// Result takes the run's mergeable result so far for -o result, with
	// gaugeTimes the time of the value each gauge keeps by metric name; it
	// locks the metrics engine itself. nil when the caller has none.
	Result func(gaugeTimes map[string]time.Time) *result.File
}

// constructor builds an output of one type.
type constructor func(Params) (Output, error)

var constructors = map[string]constructor{}

// register makes an output type available to New.
func register(typ string, c constructor) { constructors[typ] = c }

// Types returns the output types New knows, sorted.
func Types() []string {
	out := make([]string, 0, len(constructors))
	for t := range constructors {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// New builds the output of an -o value "type[=arg]".
func New(spec string, p Params) (Output, error) {
	p.Type, p.Arg, _ = strings.Cut(spec, "=")
	c, ok := constructors[p.Type]
	if !ok {
		return nil, fmt.Errorf("--out %q: unknown output type %q (known: %s)", spec, p.Type, strings.Join(Types(), ", "))
	}
	o, err := c(p)
	if err != nil {
		return nil, fmt.Errorf("--out %s: %w", spec, err)
	}
	return o, nil
}
