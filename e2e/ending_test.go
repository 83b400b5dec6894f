package e2e

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// endingRun is a run of ending.js with a result file, an HTML report and a
// summary export, signalled by the test.
type endingRun struct {
	dir string
	log *watcher
}

func (e endingRun) path(name string) string { return filepath.Join(e.dir, name) }

// wantWritten fails unless the summary export, the result file and the
// HTML report exist and are not empty.
func (e endingRun) wantWritten(t *testing.T, when string) {
	t.Helper()
	for _, f := range []string{"export.json", "run.result", "report.html"} {
		if st, err := os.Stat(e.path(f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %s not written (%v)", when, f, err)
		}
	}
}

// runEnding runs ending.js with env and, for each marker in turn, waits
// until the log shows it, calls before (if set) and sends SIGINT. It
// returns the result timed from the last signal.
func runEnding(t *testing.T, env []string, markers []string, before func(e endingRun, marker string)) (endingRun, result) {
	t.Helper()
	e := endingRun{dir: t.TempDir(), log: newWatcher()}
	inv := invocation{
		args: []string{"run", "-q", "-o", "result=" + e.path("run.result"), "--report", e.path("report.html"),
			"--summary-export", e.path("export.json"), script("ending.js")},
		env: env,
	}
	cmd, stdout, stderr := inv.command(t)
	cmd.Stderr = io.MultiWriter(stderr, e.log)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var sent time.Time
	for _, m := range markers {
		e.log.await(t, m)
		if before != nil {
			before(e, m)
		}
		sent = time.Now()
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
	}
	return e, finish(t, cmd, cmd.Wait(), sent, stdout, stderr)
}

// TestSignalDuringHandleSummary: handleSummary() loops forever. The result
// file, the HTML report and the export are on the disk before it runs, and
// the first SIGINT interrupts it: exit 105 at once, with the text summary.
func TestSignalDuringHandleSummary(t *testing.T) {
	t.Parallel()
	e, r := runEnding(t, []string{"STAGE=summary"}, []string{"ending.js: in handleSummary"}, func(e endingRun, _ string) {
		e.wantWritten(t, "before handleSummary() returned")
	})
	r.wantCode(t, 105)
	if r.elapsed > 10*time.Second {
		t.Errorf("exit took %s after the signal; want a prompt stop", r.elapsed)
	}
	if !strings.Contains(r.stderr, "handleSummary() was interrupted by a signal") || !strings.Contains(r.stdout, "TOTAL RESULTS") {
		t.Errorf("want the interruption logged and the text summary printed\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	e.wantWritten(t, "after the run")
}

// TestSignalDuringTeardown: teardown() loops forever (teardownTimeout 60 s).
// The first SIGINT interrupts it: exit 105 at once (not 101 after 60 s),
// with everything written and handleSummary() run.
func TestSignalDuringTeardown(t *testing.T) {
	t.Parallel()
	e, r := runEnding(t, []string{"STAGE=teardown"}, []string{"ending.js: in teardown"}, nil)
	r.wantCode(t, 105)
	if r.elapsed > 10*time.Second {
		t.Errorf("exit took %s after the signal; want a prompt stop", r.elapsed)
	}
	if !strings.Contains(r.stderr, "interrupted during teardown()") || r.stdout != "custom summary\n" {
		t.Errorf("want the interruption logged and handleSummary's output\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	e.wantWritten(t, "after the run")
}

// TestSignalTwice: a first SIGINT stops the 30 s scenario; teardown() then
// loops forever, and a second SIGINT stops it at once: exit 105 with the
// result file, the report and the export written (the second signal used
// to exit without them), handleSummary() skipped.
func TestSignalTwice(t *testing.T) {
	t.Parallel()
	e, r := runEnding(t, []string{"STAGE=teardown", "LONG=1"}, []string{"ending.js: running", "ending.js: in teardown"}, nil)
	r.wantCode(t, 105)
	if r.elapsed > 10*time.Second {
		t.Errorf("exit took %s after the second signal; want a prompt stop", r.elapsed)
	}
	if strings.Contains(r.stderr, "in handleSummary") || !strings.Contains(r.stdout, "TOTAL RESULTS") {
		t.Errorf("want handleSummary() skipped and the text summary printed\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	e.wantWritten(t, "after the second signal")
	if n := number(t, export(t, e.path("export.json")), "metrics", "iterations", "count"); n < 1 {
		t.Errorf("export iterations = %v, want the iterations run before the first signal", n)
	}
}

// TestSummaryCountsUnstartableIterations runs 1e8 iterations/s for 2 s:
// the run ends promptly (it took 35 s and more), every due iteration is
// either started or dropped (iterations + dropped_iterations = 2e8 in the
// export), and one WARN line says why.
func TestSummaryCountsUnstartableIterations(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "export.json")
	r := run(t, "run", "-q", "--summary-export", out, script("unstartable.js"))
	r.wantCode(t, 0)
	if r.elapsed > 10*time.Second {
		t.Errorf("the 2 s scenario took %s", r.elapsed)
	}
	m := export(t, out)
	started, dropped := number(t, m, "metrics", "iterations", "count"), number(t, m, "metrics", "dropped_iterations", "count")
	if started < 1 || started+dropped != 2e8 {
		t.Errorf("iterations %v + dropped_iterations %v, want 2e8, some started", started, dropped)
	}
	var drops int
	for line := range strings.SplitSeq(r.stderr, "\n") {
		if strings.HasPrefix(line, "WARN") && strings.Contains(line, "dropped") {
			drops++
		}
	}
	if drops != 1 {
		t.Errorf("%d WARN lines about dropped iterations, want one:\n%s", drops, r.stderr)
	}
}
