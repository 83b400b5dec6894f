package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/result"
)

func init() { register("result", newResult) }

// Result writes the run's mergeable result (see package result) to a file
// when the run stops, also after SIGINT or SIGTERM: `-o result=PATH`. The
// results of the runners of one test merge with `usefullatency merge`.
// While the run goes on it only notes when each gauge last changed.
//
// setup()'s data, often a login token, is left out of the file unless
// asked for: `-o result=PATH,setupData=true`.
type Result struct {
	path      string
	setupData bool
	snapshot  func(map[string]time.Time) *result.File
	gaugeTimes
}

// gaugeTimes notes, by metric name, when each gauge and gauge submetric
// last changed: the time of the value the gauge keeps, for merging gauges
// by time. It is written under the engine lock (AddSamples) and read under
// it (the snapshot function locks the engine).
type gaugeTimes map[string]time.Time

var _ Output = (*Result)(nil)

func newResult(p Params) (Output, error) {
	if p.Arg == "" {
		return nil, errors.New("want -o result=PATH, the file to write the result to")
	}
	if p.Result == nil {
		return nil, errors.New("this command cannot write a result")
	}
	path, keep, err := ResultArg(p.Arg)
	if err != nil {
		return nil, err
	}
	return &Result{path: path, setupData: keep, snapshot: p.Result, gaugeTimes: gaugeTimes{}}, nil
}

// setupDataOption is the option of -o result that keeps setup()'s data.
const setupDataOption = ",setupData="

// ResultArg splits the argument of -o result, "PATH[,setupData=BOOL]",
// into the path and the option (false when not given); a path may hold
// commas.
func ResultArg(arg string) (path string, setupData bool, err error) {
	i := strings.LastIndex(arg, setupDataOption)
	if i < 0 {
		return arg, false, nil
	}
	v := arg[i+len(setupDataOption):]
	setupData, err = strconv.ParseBool(v)
	if err != nil {
		return "", false, fmt.Errorf("setupData=%q: want true or false", v)
	}
	if arg[:i] == "" {
		return "", false, errors.New("want -o result=PATH[,setupData=true], the file to write the result to")
	}
	return arg[:i], setupData, nil
}

// Description names the output for the banner.
func (r *Result) Description() string { return "result (" + r.path + ")" }

// Start checks that the path is not a directory and that its directory
// takes files: the result itself is written at Stop, through a temporary
// file in that directory, and would be lost then.
func (r *Result) Start() error {
	if fi, err := os.Stat(r.path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", r.path)
	}
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
func (g gaugeTimes) AddSamples(samples []metrics.Sample) {
	for i := range samples {
		s := &samples[i]
		if s.Metric.Type != metrics.Gauge {
			continue
		}
		g[s.Metric.Name] = s.Time
		for _, sub := range s.Metric.Submetrics {
			if s.Tags.Contains(sub.Selector) {
				g[sub.Metric.Name] = s.Time
			}
		}
	}
}

// Stop takes the result and writes it, with setup()'s data only when
// setupData=true asked for it.
func (r *Result) Stop() error {
	f := r.snapshot(r.gaugeTimes)
	f.KeepSetupData = r.setupData
	return result.WriteFile(r.path, f)
}
