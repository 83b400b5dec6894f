package runner

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// controlled is a run of testdata/control.js started in the background
// with a Control.
type controlled struct {
	test *Test
	ctl  *Control
	done chan int
}

// startControlled loads control.js with env, sets the options edit makes
// and starts Execute under ctx.
func startControlled(t *testing.T, ctx context.Context, env map[string]string, edit func(*options.Options)) *controlled {
	t.Helper()
	var errs bytes.Buffer
	test, err := Load("testdata/control.js", env, &errs)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := options.Consolidate(test.ScriptOptions)
	if err != nil {
		t.Fatal(err)
	}
	opts.Quiet, opts.NoSummary = true, true
	edit(&opts)
	c := &controlled{test: test, ctl: NewControl(test, opts), done: make(chan int, 1)}
	go func() {
		code, err := test.Execute(ctx, Config{Options: opts, Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Control: c.ctl})
		if err != nil {
			t.Errorf("execute: %v", err)
		}
		c.done <- code
	}()
	return c
}

// wait returns the exit code, failing the test if the run lasts too long.
func (c *controlled) wait(t *testing.T) int {
	t.Helper()
	select {
	case code := <-c.done:
		return code
	case <-time.After(eventually.Deadline):
		t.Fatal("the run did not end")
		return -1
	}
}

// count returns the sum of a counter, 0 when it has no samples.
func (c *controlled) count(name string) float64 {
	var n float64
	c.test.Run.Engine.Read(func() {
		if m := c.test.Run.Registry.Get(name); m != nil {
			n = m.Sink.(*metrics.CounterSink).Sum
		}
	})
	return n
}

// samples returns how many samples every metric received so far.
func (c *controlled) samples() int {
	n := 0
	c.ctl.ReadMetrics(func(observed []*metrics.Metric, _ time.Duration) { n = len(observed) })
	return n
}

func TestPausedRunWaitsForResume(t *testing.T) {
	t.Parallel()
	c := startControlled(t, context.Background(), map[string]string{}, func(o *options.Options) { o.Paused = true })
	eventually.True(t, "the run waits paused", func() bool { return c.ctl.Status().Status == StatusPausedBeforeRun })
	st := c.ctl.Status()
	if !st.Paused || st.Running || st.VUsMax != 2 || st.VUs != 0 {
		t.Fatalf("paused status = %+v, want paused, not running, 2 VUs initialised, none active", st)
	}
	if n := c.samples(); n != 0 {
		t.Fatalf("%d metrics have samples while paused, want none", n)
	}
	if c.ctl.SetupData() != nil {
		t.Fatalf("setup ran before the resume: data %s", c.ctl.SetupData())
	}
	if err := c.ctl.SetPaused(true); err != ErrAlreadyPaused {
		t.Fatalf("pausing a paused test: %v, want %v", err, ErrAlreadyPaused)
	}
	if err := c.ctl.SetPaused(false); err != nil {
		t.Fatal(err)
	}
	if code := c.wait(t); code != ExitOK {
		t.Fatalf("exit %d, want 0", code)
	}
	if got := c.count("setup_seen"); got != 4 {
		t.Errorf("iterations that saw setup's data = %v, want 4", got)
	}
	if st := c.ctl.Status(); st.Status != StatusEnded || st.Running || st.Paused || st.Stopped {
		t.Errorf("final status = %+v, want ended, not running, paused or stopped", st)
	}
	if err := c.ctl.SetPaused(false); err == nil {
		t.Error("resuming an ended test succeeded; k6 refuses it for every executor but externally-controlled")
	}
}

func TestStopWhilePausedSkipsTheTest(t *testing.T) {
	t.Parallel()
	c := startControlled(t, context.Background(), map[string]string{}, func(o *options.Options) { o.Paused = true })
	eventually.True(t, "the run waits paused", func() bool { return c.ctl.Status().Status == StatusPausedBeforeRun })
	c.ctl.Stop()
	if code := c.wait(t); code != ExitStoppedFromAPI {
		t.Fatalf("exit %d, want %d", code, ExitStoppedFromAPI)
	}
	if n := c.count("iterations") + c.count("teardowns"); n != 0 {
		t.Errorf("a test stopped while paused ran %v iterations and teardowns", n)
	}
	if st := c.ctl.Status(); st.Status != StatusInterrupted || !st.Stopped {
		t.Errorf("status = %+v, want interrupted and stopped", st)
	}
}

func TestStopWhileRunningRunsTeardown(t *testing.T) {
	t.Parallel()
	c := startControlled(t, context.Background(), map[string]string{"DURATION": "30s"}, func(*options.Options) {})
	eventually.True(t, "iterations run", func() bool { return c.count("iterations") >= 4 })
	if st := c.ctl.Status(); st.Status != StatusRunning || !st.Running || st.VUs != 2 {
		t.Fatalf("running status = %+v", st)
	}
	start := time.Now()
	c.ctl.Stop()
	if code := c.wait(t); code != ExitStoppedFromAPI {
		t.Fatalf("exit %d, want %d", code, ExitStoppedFromAPI)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the stop took %s", d)
	}
	if n := c.count("teardowns"); n != 1 {
		t.Errorf("teardown ran %v times after a stop, want once", n)
	}
	if st := c.ctl.Status(); st.Status != StatusInterrupted || !st.Stopped || st.Running {
		t.Errorf("status = %+v, want interrupted, stopped, not running", st)
	}
}

// A signal before the REST stop keeps its own exit code, as the first
// reason to stop wins in k6.
func TestSignalBeforeStopExits105(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	c := startControlled(t, ctx, map[string]string{}, func(o *options.Options) { o.Paused = true })
	eventually.True(t, "the run waits paused", func() bool { return c.ctl.Status().Status == StatusPausedBeforeRun })
	cancel()
	c.ctl.Stop()
	if code := c.wait(t); code != ExitSignal {
		t.Fatalf("exit %d, want %d", code, ExitSignal)
	}
}

func TestLingerWaitsForTheSignal(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := startControlled(t, ctx, map[string]string{}, func(o *options.Options) { o.Linger = true })
	eventually.True(t, "the test ends", func() bool { return c.ctl.Status().Status == StatusEnded })
	var elapsed time.Duration
	c.ctl.ReadMetrics(func(_ []*metrics.Metric, d time.Duration) { elapsed = d })
	select {
	case code := <-c.done:
		t.Fatalf("the run exited (%d) without waiting for a signal", code)
	case <-time.After(50 * time.Millisecond):
	}
	c.ctl.ReadMetrics(func(_ []*metrics.Metric, d time.Duration) {
		if d != elapsed {
			t.Errorf("the test's duration went on while lingering: %s then %s", elapsed, d)
		}
	})
	cancel()
	if code := c.wait(t); code != ExitOK {
		t.Errorf("exit %d after lingering, want the test's own 0", code)
	}
}
