// Package jstest starts real VUs for the tests of JavaScript modules: a
// script written to a temporary file, bundled and initialised through the
// js package as the runner does, in a run of its own.
package jstest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// NewRun returns a run with a fresh registry, engine and root group, no
// tags and an empty environment; console output goes to log.
func NewRun(log *bytes.Buffer) *modules.Run {
	reg := metrics.NewRegistry()
	return &modules.Run{
		Engine: metrics.NewEngine(reg), Registry: reg, Builtin: metrics.RegisterBuiltin(reg),
		Root: metrics.NewRootGroup(), Tags: metrics.Tags{}, Env: map[string]string{}, Log: log,
	}
}

// NewVU writes src to a file in a temporary directory and starts a VU on
// it (see NewVUFile).
func NewVU(t testing.TB, src string) *js.VU {
	t.Helper()
	return NewVUFile(t, writeScript(t, src))
}

// NewBundle writes src to a file in a temporary directory and bundles it,
// for a test that starts VUs of its own. It fails the test on any error.
func NewBundle(t testing.TB, src string) *js.Bundle {
	t.Helper()
	b, err := js.NewBundle(writeScript(t, src))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeScript writes src to s.js in a temporary directory.
func writeScript(t testing.TB, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.js")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// NewVUFile bundles the script at path and initialises VU 1 on it in a new
// run. It fails the test on any error.
func NewVUFile(t testing.TB, path string) *js.VU {
	t.Helper()
	b, err := js.NewBundle(path)
	if err != nil {
		t.Fatal(err)
	}
	vu, err := b.NewVU(context.Background(), 1, NewRun(&bytes.Buffer{}))
	if err != nil {
		t.Fatal(err)
	}
	return vu
}

// Result is what a script's iterations did: the error that stopped them
// (nil when all ran), every sample they pushed, and the console output.
type Result struct {
	Err     error
	Samples []metrics.Sample
	Log     string
}

// Run runs src's default function for the given number of iterations (at
// least one) in VU 1 of a fresh run, stopping at the first that throws;
// opts adjust the run before the VU is created. An error creating the VU
// is the Result's Err.
func Run(ctx context.Context, t testing.TB, src string, iterations int, opts ...func(*modules.Run)) Result {
	t.Helper()
	return RunScenario(ctx, t, src, iterations, nil, opts...)
}

// RunScenario is Run with iterations that belong to the scenario sc (nil:
// none), as a browser scenario's must for k6/browser.
func RunScenario(ctx context.Context, t testing.TB, src string, iterations int, sc *modules.ScenarioInfo, opts ...func(*modules.Run)) Result {
	t.Helper()
	b := NewBundle(t, src)
	log := &bytes.Buffer{}
	run := NewRun(log)
	for _, o := range opts {
		o(run)
	}
	var (
		mu  sync.Mutex
		got []metrics.Sample
	)
	run.Engine.Subscribe(func(s []metrics.Sample) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, s...)
	})
	vu, err := b.NewVU(context.Background(), 1, run)
	if err != nil {
		return Result{Err: err, Log: log.String()}
	}
	defer run.End()
	for range max(iterations, 1) {
		if err = vu.RunIteration(ctx, js.Iteration{Exec: "default", Scenario: sc, Tags: metrics.Tags{"scenario": "default"}}); err != nil {
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return Result{Err: err, Samples: got, Log: log.String()}
}

// Of returns the samples of the metric called name.
func Of(samples []metrics.Sample, name string) []metrics.Sample {
	var out []metrics.Sample
	for _, s := range samples {
		if s.Metric.Name == name {
			out = append(out, s)
		}
	}
	return out
}
