package runner

import (
	"time"

	"github.com/usefullatency/usefullatency/result"
)

// resultSnapshot takes the run's mergeable result for -o result, under the engine
// lock; gaugeTimes are the times of the values the gauges keep.
func (e *execution) resultSnapshot(gaugeTimes map[string]time.Time) *result.File {
	src, _ := e.t.Bundle.ReadFile(e.t.Bundle.Path)
	var start time.Time
	if p := e.start.Load(); p != nil {
		start = *p
	}
	var f *result.File
	e.t.Run.Engine.Read(func() {
		f = result.Snapshot(result.Source{
			Script: e.cfg.ScriptName, ScriptSource: src, Options: e.cfg.Options,
			Registry: e.t.Run.Registry, Root: e.t.Run.Root, Streaming: e.streaming,
			Start: start, End: time.Now(), Duration: e.summaryDuration(),
			SetupData: e.ctl.SetupData(), GaugeTimes: gaugeTimes,
		})
	})
	return f
}
