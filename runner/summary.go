package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/summary"
)

// summarize writes the end-of-test summary: the script's handleSummary
// result if it has one, else the text summary on stdout (--no-summary
// turns both off); and the --summary-export file whenever it was asked for.
func (e *execution) summarize() error {
	o := e.cfg.Options
	var in summary.Input
	var data map[string]any
	var text string
	var export []byte
	var exportErr error
	e.t.Run.Engine.Read(func() {
		in = summary.Input{
			Metrics: e.t.Run.Registry.All(), Root: e.t.Run.Root, TrendStats: o.SummaryTrendStats,
			TimeUnit: o.SummaryTimeUnit, Duration: e.Elapsed(), SetupData: e.setupData(),
			NoColor: !e.cfg.StdoutTTY, IsStdOutTTY: e.cfg.StdoutTTY, IsStdErrTTY: e.cfg.StderrTTY,
			Streaming: e.streaming,
		}
		data = summary.Data(in)
		text = summary.Text(in, summary.TextOptions{Indent: " ", Color: e.cfg.StdoutTTY})
		if o.SummaryExport != "" {
			export, exportErr = summary.Export(in)
		}
	})
	var errs []error
	if o.SummaryExport != "" {
		if exportErr == nil {
			exportErr = os.WriteFile(o.SummaryExport, export, 0o644)
		}
		if exportErr != nil {
			errs = append(errs, fmt.Errorf("--summary-export: %w", exportErr))
		}
	}
	if e.t.Main.HasFunction("handleSummary") && !o.NoSummary {
		err := e.handleSummary(data)
		if err == nil {
			return errors.Join(errs...)
		}
		fmt.Fprintf(e.cfg.Stderr, "ERRO handleSummary() failed, printing the default summary: %s\n", redact.Text(err.Error()))
	}
	if !o.NoSummary {
		fmt.Fprint(e.cfg.Stdout, text)
	}
	return errors.Join(errs...)
}

func (e *execution) setupData() any {
	if len(e.setupJSON) == 0 {
		return nil
	}
	var v any
	_ = json.Unmarshal(e.setupJSON, &v)
	return v
}

// handleSummary calls the script's handleSummary(data) and writes what it
// returns: each key is a file path, "stdout" and "stderr" the streams;
// values are strings or ArrayBuffers (other values are written as JSON).
func (e *execution) handleSummary(data map[string]any) error {
	vu := e.t.Main
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
		if err := e.writeSummaryOutput(key, obj.Get(key)); err != nil {
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

func (e *execution) writeSummaryOutput(key string, v sobek.Value) error {
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
		_, err := e.cfg.Stdout.Write(content)
		return err
	case "stderr":
		_, err := e.cfg.Stderr.Write(content)
		return err
	}
	if err := os.WriteFile(key, content, 0o644); err != nil {
		return fmt.Errorf("handleSummary: %w", err)
	}
	return nil
}
