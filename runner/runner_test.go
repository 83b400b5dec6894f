package runner

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// run loads and executes script in-process, so the race detector sees the
// whole orchestration: VU initialisation, scenarios, tickers, summary.
func run(t *testing.T, script string, ctx context.Context) (int, *Test, string) {
	t.Helper()
	var out, errs bytes.Buffer
	test, err := Load(script, map[string]string{}, &errs)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := options.Consolidate(test.ScriptOptions)
	if err != nil {
		t.Fatal(err)
	}
	opts.Quiet = true
	code, err := test.Execute(ctx, Config{Options: opts, ScriptName: script, Stdout: &out, Stderr: &errs})
	if err != nil {
		t.Fatalf("execute: %v\n%s", err, errs.String())
	}
	return code, test, out.String()
}

func TestExecuteScenariosInProcess(t *testing.T) {
	code, test, out := run(t, "testdata/mixed.js", context.Background())
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, out)
	}
	reg := test.Run.Registry
	iters := reg.Get("iterations").Sink.(*metrics.CounterSink).Sum
	// open: 50 arrivals; shared: 12; closed: 2 VUs for ~1 s of 20 ms groups.
	if iters < 50+12+40 {
		t.Fatalf("iterations = %v", iters)
	}
	if !strings.Contains(out, "THRESHOLDS") || !strings.Contains(out, "hits{kind:open}") {
		t.Fatalf("summary misses the thresholds:\n%s", out)
	}
	if g := reg.Get("group_duration").Sink.(*metrics.TrendSink); g.Count() == 0 {
		t.Fatal("no group_duration samples")
	}
}

func TestExecuteInterruptedBySignal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	code, _, out := run(t, "testdata/mixed.js", ctx)
	if code != ExitSignal {
		t.Fatalf("exit %d, want %d", code, ExitSignal)
	}
	if time.Since(start) > 2*time.Second || !strings.Contains(out, "TOTAL RESULTS") {
		t.Fatalf("a stopped run must end early and still print its summary (took %v)", time.Since(start))
	}
}

// The outputs read their K6_* settings from Config.Env, not from the
// process environment: a CSV file named only there is written.
func TestExecuteOutputsReadConfigEnv(t *testing.T) {
	path := filepath.Join(t.TempDir(), "samples.csv")
	t.Setenv("K6_CSV_FILENAME", filepath.Join(t.TempDir(), "not-this.csv"))
	var errs bytes.Buffer
	test, err := Load("testdata/once.js", map[string]string{}, &errs)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := options.Consolidate(test.ScriptOptions)
	if err != nil {
		t.Fatal(err)
	}
	opts.Quiet, opts.NoSummary, opts.Out = true, true, []string{"csv"}
	code, err := test.Execute(context.Background(), Config{
		Options: opts, ScriptName: "once.js", Stdout: io.Discard, Stderr: &errs,
		Env: map[string]string{"K6_CSV_FILENAME": path},
	})
	if err != nil || code != ExitOK {
		t.Fatalf("exit %d, %v\n%s", code, err, errs.String())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "hits,") {
		t.Fatalf("the CSV named in Config.Env has no hits sample:\n%s", b)
	}
}
