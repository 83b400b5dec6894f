package runner_test

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/js/modules/usefulsse"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/runner"
)

// bench/streams.js imports k6/x/usefulsse, which the command's binary
// registers through the repository root.
func init() { modules.Register(usefulsse.Name, usefulsse.New()) }

// BenchmarkStreamsProfile is the profiling harness of the streaming load
// benchmark: it runs bench/streams.js in-process (the runner, as `run`
// does) against a bench/sseserver started by the caller, so that the test
// binary's -cpuprofile covers the runner alone, and it writes a heap
// profile in the middle of the run. A benchmark, so `go test` never runs it; it needs BENCH_SSE_URL:
//
//	go run ./bench/sseserver &   # prints its URL
//	BENCH_SSE_URL=http://127.0.0.1:PORT RATE=1000 DURATION=20s BENCH_HEAP=/tmp/heap.prof \
//	  go test -run BenchmarkStreamsProfile -count 1 -cpuprofile /tmp/cpu.prof ./runner/
//	go tool pprof -top runner.test /tmp/cpu.prof
func BenchmarkStreamsProfile(t *testing.B) {
	url := os.Getenv("BENCH_SSE_URL")
	if url == "" {
		t.Skip("BENCH_SSE_URL is not set")
	}
	env := map[string]string{"SSE_URL": url}
	for _, k := range []string{"RATE", "DURATION", "VUS"} {
		if v := os.Getenv(k); v != "" {
			env[k] = v
		}
	}
	var errs bytes.Buffer
	test, err := runner.Load("../bench/streams.js", env, &errs)
	if err != nil {
		t.Fatal(err, errs.String())
	}
	opts, err := options.Consolidate(test.ScriptOptions)
	if err != nil {
		t.Fatal(err)
	}
	opts.Quiet = true
	if heap := os.Getenv("BENCH_HEAP"); heap != "" {
		dur, _ := options.ParseDuration(env["DURATION"])
		if dur == 0 {
			dur = 30 * time.Second
		}
		// VU initialisation takes a moment; halfway through the scenario
		// the open streams are at their steady count.
		timer := time.AfterFunc(dur/2+time.Second, func() {
			f, err := os.Create(heap)
			if err != nil {
				t.Error(err)
				return
			}
			defer f.Close()
			runtime.GC()
			if err := pprof.WriteHeapProfile(f); err != nil {
				t.Error(err)
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			t.Logf("mid-run: %d goroutines, heap in use %d MB, stacks in use %d MB, sys %d MB",
				runtime.NumGoroutine(), ms.HeapInuse>>20, ms.StackInuse>>20, ms.Sys>>20)
		})
		defer timer.Stop()
	}
	var out bytes.Buffer
	code, err := test.Execute(context.Background(), runner.Config{Options: opts, ScriptName: "streams.js", Stdout: &out, Stderr: &errs})
	if err != nil || code != 0 {
		t.Fatalf("exit %d: %v\n%s", code, err, errs.String())
	}
	reg := test.Run.Registry
	it := reg.Get("iterations").Sink.(*metrics.CounterSink).Sum
	t.Logf("iterations %.0f, first_text_error p99 %.3f ms", it, reg.Get("first_text_error").Sink.(*metrics.TrendSink).P(0.99))
}
