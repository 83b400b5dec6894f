package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
	"github.com/usefullatency/usefullatency/internal/syncbuf"
	"github.com/usefullatency/usefullatency/options"
)

// ending is one run of testdata/endless.js with its result file, HTML
// report and summary export, and the two signal contexts of the command
// line.
type ending struct {
	dir                    string
	log                    *syncbuf.Buffer
	stdout                 bytes.Buffer
	signal, force          context.Context
	firstSignal, secondSig context.CancelFunc
	done                   chan struct{}
	code                   int
	err                    error
	elapsed                time.Duration
}

// startEnding starts endless.js with env in the background.
func startEnding(t *testing.T, env map[string]string) *ending {
	t.Helper()
	r := &ending{dir: t.TempDir(), log: &syncbuf.Buffer{}, done: make(chan struct{})}
	r.signal, r.firstSignal = context.WithCancel(context.Background())
	r.force, r.secondSig = context.WithCancel(context.Background())
	t.Cleanup(func() { r.firstSignal(); r.secondSig(); <-r.done })
	test, err := Load("testdata/endless.js", env, r.log)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := options.Consolidate(test.ScriptOptions)
	if err != nil {
		t.Fatal(err)
	}
	opts.Quiet, opts.SummaryExport = true, r.path("export.json")
	opts.Out = []string{"result=" + r.path("run.result"), "html=" + r.path("report.html")}
	go func() {
		defer close(r.done)
		start := time.Now()
		r.code, r.err = test.Execute(r.signal, Config{Options: opts, ScriptName: "endless.js", Stdout: &r.stdout, Stderr: r.log, Force: r.force})
		r.elapsed = time.Since(start)
	}()
	return r
}

func (r *ending) path(name string) string { return filepath.Join(r.dir, name) }

// await waits until the log holds line.
func (r *ending) await(t *testing.T, line string) {
	t.Helper()
	eventually.True(t, "the log shows "+line, func() bool { return strings.Contains(r.log.String(), line) })
}

// wait waits for Execute to return, at most 20 s.
func (r *ending) wait(t *testing.T) {
	t.Helper()
	select {
	case <-r.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("Execute did not return within 20 s of the signal; log:\n%s", r.log)
	}
}

// wantWritten fails unless the summary export, the result file and the
// HTML report exist and are not empty.
func (r *ending) wantWritten(t *testing.T) {
	t.Helper()
	for _, f := range []string{"export.json", "run.result", "report.html"} {
		if st, err := os.Stat(r.path(f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written (%v); log:\n%s", f, err, r.log)
		}
	}
}

// TestSignalDuringHandleSummary: handleSummary() loops forever; the result
// file, the report and the export are on the disk before it runs, and the
// first signal interrupts it: 105 and the text summary.
func TestSignalDuringHandleSummary(t *testing.T) {
	t.Parallel()
	r := startEnding(t, map[string]string{"STAGE": "summary"})
	r.await(t, "endless.js: in handleSummary")
	r.wantWritten(t)
	r.firstSignal()
	r.wait(t)
	if r.code != ExitSignal || !strings.Contains(r.log.String(), "handleSummary() was interrupted by a signal") ||
		!strings.Contains(r.stdout.String(), "TOTAL RESULTS") {
		t.Errorf("exit %d, %v; want 105, the interruption logged and the text summary\nlog:\n%s", r.code, r.err, r.log)
	}
}

// TestSignalDuringTeardown: teardown() loops forever (teardownTimeout
// 60 s); the first signal interrupts it at once: 105, everything written,
// and handleSummary() still runs.
func TestSignalDuringTeardown(t *testing.T) {
	t.Parallel()
	r := startEnding(t, map[string]string{"STAGE": "teardown"})
	r.await(t, "endless.js: in teardown")
	r.firstSignal()
	r.wait(t)
	if r.code != ExitSignal || r.err == nil || !strings.Contains(r.err.Error(), "interrupted during teardown()") {
		t.Errorf("exit %d, %v; want 105 and the teardown interruption", r.code, r.err)
	}
	if r.elapsed > 30*time.Second || r.stdout.String() != "custom summary\n" {
		t.Errorf("took %s, stdout %q: want well under teardownTimeout and handleSummary's output", r.elapsed, r.stdout.String())
	}
	r.wantWritten(t)
}

// TestSecondSignal: a first signal stops the scenarios; teardown() or
// handleSummary() then loops forever, and a second signal interrupts it:
// 105, handleSummary() skipped or interrupted, and the export, the result
// file and the report written all the same.
func TestSecondSignal(t *testing.T) {
	t.Parallel()
	for _, stage := range []string{"teardown", "summary"} {
		t.Run(stage, func(t *testing.T) {
			t.Parallel()
			r := startEnding(t, map[string]string{"STAGE": stage, "LONG": "1"})
			r.await(t, "endless.js: running")
			r.firstSignal()
			r.await(t, "endless.js: in "+map[string]string{"teardown": "teardown", "summary": "handleSummary"}[stage])
			r.secondSig()
			r.wait(t)
			if r.code != ExitSignal || !strings.Contains(r.stdout.String(), "TOTAL RESULTS") {
				t.Errorf("exit %d, %v; want 105 and the text summary\nlog:\n%s", r.code, r.err, r.log)
			}
			if stage == "teardown" && strings.Contains(r.log.String(), "in handleSummary") {
				t.Errorf("handleSummary() ran after the second signal:\n%s", r.log)
			}
			r.wantWritten(t)
		})
	}
}

// TestHandleSummaryTimeout: handleSummary() past its timeout (k6's 2 min,
// shortened here) is interrupted and the text summary printed; the run's
// exit code is not changed.
func TestHandleSummaryTimeout(t *testing.T) {
	defer func(d time.Duration) { handleSummaryTimeout = d }(handleSummaryTimeout)
	handleSummaryTimeout = 300 * time.Millisecond
	r := startEnding(t, map[string]string{"STAGE": "summary"})
	r.wait(t)
	if r.code != ExitOK || !strings.Contains(r.log.String(), "handleSummary() was interrupted after 300ms") ||
		!strings.Contains(r.stdout.String(), "TOTAL RESULTS") {
		t.Errorf("exit %d, %v; want 0, the timeout logged and the text summary\nlog:\n%s", r.code, r.err, r.log)
	}
	r.wantWritten(t)
}
