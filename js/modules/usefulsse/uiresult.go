package usefulsse

import (
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/uiprobe"
)

// uiResultValue is the JavaScript view of a watch's result: {timings:
// {first_text, useful, complete} (ms from the action, null when never
// reached), text, state, error, error_code, useful_reached, action: {at
// (Unix ms), source}, end, changes}.
func uiResultValue(rt *sobek.Runtime, r *uiprobe.Result) sobek.Value {
	var state any
	if r.State != nil {
		state = r.State
	}
	var at any
	if !r.Action.At.IsZero() {
		at = float64(r.Action.At.UnixMicro()) / 1000
	}
	tm := r.Timings
	return rt.ToValue(map[string]any{
		"timings": map[string]any{
			"first_text": msValue(tm.FirstText), "useful": msValue(tm.Useful), "complete": msValue(tm.Complete),
		},
		"text": r.Text, "state": state, "error": r.Error, "error_code": r.ErrorCode,
		"useful_reached": r.UsefulReached, "end": r.End, "changes": r.Changes,
		"action": map[string]any{"at": at, "source": r.Action.Source},
	})
}

// recordUI pushes the samples of a watch (layer ui).
func (p *Probe) recordUI(c *watchCall, res *uiprobe.Result) {
	run := p.vu.State().Run
	if run == nil {
		return
	}
	run.Engine.Push(modules.WithMetadata(res.Samples(run.Registry, c.tags), c.meta)...)
}
