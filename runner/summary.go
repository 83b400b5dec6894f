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

// summarize writes the end-of-test summary of the run (see WriteSummary).
func (e *execution) summarize() error {
	o := e.cfg.Options
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
	return WriteSummary(e.t.Main, in, SummaryOptions{
		Export: o.SummaryExport, NoSummary: o.NoSummary, Color: e.cfg.StdoutTTY,
		Mode: summary.ParseMode(o.SummaryMode), Stdout: e.cfg.Stdout, Stderr: e.cfg.Stderr,
	}, e.t.Run.Engine.Read)
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
}

// WriteSummary writes the end-of-test summary of in: the result of the
// script's handleSummary(data) when main (which may be nil) has one, else
// the text summary on stdout (NoSummary turns both off); and the export file
// whenever it was asked for. read runs its function while no sample is
// pushed (metrics.Engine.Read), as reading percentiles sorts trend values.
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
	if main != nil && main.HasFunction("handleSummary") && !o.NoSummary {
		err := handleSummary(main, data, o)
		if err == nil {
			return errors.Join(errs...)
		}
		fmt.Fprintf(o.Stderr, "ERRO handleSummary() failed, printing the default summary: %s\n", redact.Text(err.Error()))
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
	rt := vu.Runtime()
	arg, err := jsonValue(rt, data)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := vu.Call(ctx, "handleSummary", arg)
	if err != nil {
		return err
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
