package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/summary"
)

// summarize writes the end-of-test summary of the run (see WriteSummary):
// the summary export first, then the outputs' files (the result file, the
// HTML report) as the outputs stop, and only then handleSummary() — so the
// script can neither delay nor lose what was measured. A signal interrupts
// handleSummary(): the first one when it arrives after summarize started,
// else the next (Config.Force); interrupted reports that one did.
func (e *execution) summarize() (interrupted bool, err error) {
	o := e.cfg.Options
	interrupt := e.nextSignal()
	duration := e.Elapsed()
	e.duration.Store(int64(duration))
	in := summary.Input{
		Metrics: e.t.Run.Registry.All(), Root: e.t.Run.Root, TrendStats: o.SummaryTrendStats,
		TimeUnit: o.SummaryTimeUnit, Duration: duration, SetupData: e.setupData(),
		NoColor: !e.cfg.StdoutTTY, IsStdOutTTY: e.cfg.StdoutTTY, IsStdErrTTY: e.cfg.StderrTTY,
		Streaming: e.streaming, ByScenario: e.byScenario, ChecksByScenario: e.checksByScenario, ByGroup: e.byGroup,
	}
	// The script's VU runs one call at a time: the REST API may call
	// setup() or teardown() on it too.
	e.t.mainMu.Lock()
	defer e.t.mainMu.Unlock()
	err = WriteSummary(e.t.Main, in, SummaryOptions{
		Export: o.SummaryExport, NoSummary: o.NoSummary, Color: e.cfg.StdoutTTY,
		Mode: summary.ParseMode(o.SummaryMode), Stdout: e.cfg.Stdout, Stderr: e.cfg.Stderr,
		Interrupt: interrupt, Exported: e.stopOutputs,
	}, e.t.Run.Engine.Read)
	return interrupt.Err() != nil, err
}

// nextSignal returns the context that the next signal ends: Execute's own
// until the first signal, then Config.Force (never ending when nil). A
// phase that started before a signal is interrupted by it; one that starts
// after a first signal (teardown() and handleSummary() still run after a
// signal stopped the scenarios) by the second.
func (e *execution) nextSignal() context.Context {
	if e.signal.Err() == nil {
		return e.signal
	}
	if e.cfg.Force != nil {
		return e.cfg.Force
	}
	return context.Background()
}

// SummaryOptions says where an end-of-test summary goes.
type SummaryOptions struct {
	// Export is the --summary-export file; "" writes none.
	Export string
	// NoSummary turns off the text summary and handleSummary.
	NoSummary bool
	// Color colours the text summary.
	Color bool
	// Mode is the text summary's layout (--summary-mode).
	Mode summary.Mode
	// Stdout and Stderr are the streams the summary and errors go to, and
	// handleSummary's "stdout" and "stderr" keys.
	Stdout, Stderr io.Writer
	// Interrupt ends handleSummary() early (a signal): the text summary is
	// printed instead. When it has ended already, handleSummary() is not
	// called. Nil never ends.
	Interrupt context.Context
	// Exported, when set, is called once the export is written and before
	// handleSummary() runs: a run stops its outputs there, so that their
	// files never wait for the script.
	Exported func()
}

// HandleSummaryTimeout bounds handleSummary(), as in k6: past it the call
// is interrupted and the text summary printed instead.
const HandleSummaryTimeout = 2 * time.Minute

// handleSummaryTimeout is HandleSummaryTimeout, shortened by tests.
var handleSummaryTimeout = HandleSummaryTimeout

// WriteSummary writes the end-of-test summary of in: the export file
// whenever it was asked for, first; then the result of the script's
// handleSummary(data) when main (which may be nil) has one, else the text
// summary on stdout (NoSummary turns both off). handleSummary() runs for at
// most HandleSummaryTimeout and until o.Interrupt ends; then, as when it
// throws, the text summary is printed. read runs its function while no
// sample is pushed (metrics.Engine.Read), as reading percentiles sorts
// trend values.
func WriteSummary(main *js.VU, in summary.Input, o SummaryOptions, read func(func())) error {
	var data map[string]any
	var text string
	var export []byte
	var exportErr error
	read(func() {
		data = summary.Data(in)
		text = summary.Text(in, summary.TextOptions{Indent: " ", Color: o.Color, Mode: o.Mode})
		if o.Export != "" {
			export, exportErr = summary.Export(in)
		}
	})
	var errs []error
	if o.Export != "" {
		if exportErr == nil {
			exportErr = os.WriteFile(o.Export, export, 0o644)
		}
		if exportErr != nil {
			errs = append(errs, fmt.Errorf("--summary-export: %w", exportErr))
		}
	}
	if o.Exported != nil {
		o.Exported()
	}
	if main != nil && main.HasFunction("handleSummary") && !o.NoSummary {
		err := handleSummary(main, data, o)
		if err == nil {
			return errors.Join(errs...)
		}
		fmt.Fprintf(o.Stderr, "ERRO %s, printing the default summary\n", redact.Text(err.Error()))
	}
	if !o.NoSummary {
		fmt.Fprint(o.Stdout, text)
	}
	return errors.Join(errs...)
}

// summaryDuration is the test run duration the summary reported, or the
// time elapsed so far before it was written.
func (e *execution) summaryDuration() time.Duration {
	if d := e.duration.Load(); d > 0 {
		return time.Duration(d)
	}
	return e.Elapsed()
}

func (e *execution) setupData() any {
	data := e.ctl.SetupData()
	if len(data) == 0 {
		return nil
	}
	var v any
	_ = json.Unmarshal(data, &v)
	return v
}

// handleSummary calls the script's handleSummary(data) and writes what it
// returns: each key is a file path, "stdout" and "stderr" the streams;
// values are strings or ArrayBuffers (other values are written as JSON).
func handleSummary(vu *js.VU, data map[string]any, o SummaryOptions) error {
	interrupt := o.Interrupt
	if interrupt == nil {
		interrupt = context.Background()
	}
	if interrupt.Err() != nil {
		return errors.New("handleSummary() was not called: a signal stopped the test at once")
	}
	rt := vu.Runtime()
	arg, err := jsonValue(rt, data)
	if err != nil {
		return fmt.Errorf("handleSummary() failed: %w", err)
	}
	ctx, cancel := context.WithTimeout(interrupt, handleSummaryTimeout)
	defer cancel()
	res, err := vu.Call(ctx, "handleSummary", arg)
	switch {
	case err == nil:
	case errors.Is(err, js.ErrInterrupted) && ctx.Err() == context.DeadlineExceeded:
		return fmt.Errorf("handleSummary() was interrupted after %s (its timeout, as in k6)", handleSummaryTimeout)
	case errors.Is(err, js.ErrInterrupted) && interrupt.Err() != nil:
		return errors.New("handleSummary() was interrupted by a signal")
	default:
		return fmt.Errorf("handleSummary() failed: %w", err)
	}
	if res == nil || sobek.IsUndefined(res) || sobek.IsNull(res) {
		return nil
	}
	obj := res.ToObject(rt)
	for _, key := range obj.Keys() {
		if err := writeSummaryOutput(key, obj.Get(key), o); err != nil {
			return err
		}
	}
	return nil
}

// jsonValue turns Go data into plain JS objects through JSON.parse, so the
// script gets real arrays and objects.
func jsonValue(rt *sobek.Runtime, v any) (sobek.Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	parse, _ := sobek.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
	return parse(sobek.Undefined(), rt.ToValue(string(b)))
}

func writeSummaryOutput(key string, v sobek.Value, o SummaryOptions) error {
	var content []byte
	switch x := v.Export().(type) {
	case string:
		content = []byte(x)
	case sobek.ArrayBuffer:
		content = x.Bytes()
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Errorf("handleSummary: value of %q: %w", key, err)
		}
		content = b
	}
	switch key {
	case "stdout":
		_, err := o.Stdout.Write(content)
		return err
	case "stderr":
		_, err := o.Stderr.Write(content)
		return err
	}
	if err := os.WriteFile(key, content, 0o644); err != nil {
		return fmt.Errorf("handleSummary: %w", err)
	}
	return nil
}
