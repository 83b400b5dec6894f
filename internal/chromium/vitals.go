package chromium

import (
	"context"
	_ "embed" // vitals.js
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The web vitals are measured in the page by vitals.js, our own script on
// the browser's PerformanceObserver entry types; its header says what each
// vital measures and where our figure may differ from the Chrome UX
// Report's. The script runs in an isolated world of every top-level
// document and reports each vital once per document through a Runtime
// binding; Go rates the value and turns it into a Sample tagged url, name
// (both the document's URL) and rating.
//
// The ratings follow the published thresholds: a value up to the first is
// "good", up to the second "needs-improvement" (the spelling of k6 and of
// the web-vitals convention), above it "poor".
//
//	LCP 2500/4000 ms, FCP 1800/3000 ms, INP 200/500 ms, FID 100/300 ms,
//	TTFB 800/1800 ms, CLS 0.1/0.25.
//
// Final values (LCP, CLS, INP) are sent when the document is hidden or
// left, and before Page.Close closes the tab, flush asks the script for
// them. Chromium drops the messages of a document that unloads, so the
// script also sends these three each time they change, and when the
// document's execution context goes (a navigation) Go reports the last
// value it got.

//go:embed vitals.js
var vitalsJS string

const (
	// vitalsWorld names the isolated world the script runs in.
	vitalsWorld = "usefullatency-vitals"
	// vitalsBinding is the Runtime binding the script reports through.
	vitalsBinding = "usefullatencyVital"
)

// The ratings of a web vital.
const (
	RatingGood             = "good"
	RatingNeedsImprovement = "needs-improvement"
	RatingPoor             = "poor"
)

// vitalThresholds are the upper bounds of "good" and of
// "needs-improvement" per metric.
var vitalThresholds = map[string][2]float64{
	MetricWebVitalLCP:  {2500, 4000},
	MetricWebVitalFCP:  {1800, 3000},
	MetricWebVitalINP:  {200, 500},
	MetricWebVitalFID:  {100, 300},
	MetricWebVitalTTFB: {800, 1800},
	MetricWebVitalCLS:  {0.1, 0.25},
}

// vitalMetrics maps the script's names to metric names.
var vitalMetrics = map[string]string{
	"LCP":  MetricWebVitalLCP,
	"FCP":  MetricWebVitalFCP,
	"INP":  MetricWebVitalINP,
	"FID":  MetricWebVitalFID,
	"TTFB": MetricWebVitalTTFB,
	"CLS":  MetricWebVitalCLS,
}

// rating rates value of metric against its thresholds.
func rating(metric string, value float64) string {
	t := vitalThresholds[metric]
	switch {
	case value <= t[0]:
		return RatingGood
	case value <= t[1]:
		return RatingNeedsImprovement
	default:
		return RatingPoor
	}
}

// vitalReport is what the script sends for one vital.
type vitalReport struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	URL   string  `json:"url"`
	// Final is false for the latest value of a vital the page may still
	// change (LCP, CLS, INP).
	Final bool `json:"final"`
}

// sample turns the report into a sample taken at; false for a name the
// package does not know.
func (r vitalReport) sample(at time.Time) (Sample, bool) {
	metric, ok := vitalMetrics[r.Name]
	if !ok || r.Value < 0 {
		return Sample{}, false
	}
	return Sample{Metric: metric, Value: r.Value, Time: at, Tags: map[string]string{
		"url":    r.URL,
		"name":   r.URL,
		"rating": rating(metric, r.Value),
	}}, true
}

// vitals installs the script in a page and follows the execution contexts
// of its world: it keeps each document's latest provisional values and
// reports them when the context goes, since a document's last messages
// are lost when it unloads. The protocol's event loop calls it, and so
// does the page's Close; a mutex guards it.
type vitals struct {
	mu    sync.Mutex
	frame cdp.FrameID
	// world is the unique id of the world's context in the main frame,
	// where flush runs.
	world string
	// live maps the id of each context of the world to its unique id.
	live map[runtime.ExecutionContextID]string
	// pending holds per context the latest provisional report per vital.
	pending map[runtime.ExecutionContextID]map[string]vitalReport
}

func newVitals() *vitals {
	return &vitals{live: map[runtime.ExecutionContextID]string{}, pending: map[runtime.ExecutionContextID]map[string]vitalReport{}}
}

// install adds the binding and the script to the target; every document
// loaded from now on runs the script.
func (v *vitals) install(ctx context.Context, t *chromedp.Target) error {
	tree, err := cdp.Call(ctx, t, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return err
	}
	v.mu.Lock()
	v.frame = tree.FrameTree.Frame.ID
	v.mu.Unlock()
	_, err = cdp.Call(ctx, t, runtime.AddBinding, runtime.AddBindingParams{Name: vitalsBinding, ExecutionContextName: vitalsWorld})
	if err != nil {
		return err
	}
	name, _ := json.Marshal(vitalsBinding)
	_, err = cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source:    "(" + vitalsJS + ")(" + string(name) + ")",
		WorldName: vitalsWorld,
	})
	return err
}

// contextCreated notes a context of the script's world.
func (v *vitals) contextCreated(ev *runtime.EventExecutionContextCreated) {
	if ev.Context == nil || ev.Context.Name != vitalsWorld {
		return
	}
	var aux struct {
		FrameID cdp.FrameID `json:"frameId"`
	}
	_ = json.Unmarshal(ev.Context.AuxData, &aux)
	v.mu.Lock()
	defer v.mu.Unlock()
	v.live[ev.Context.ID] = ev.Context.UniqueID
	if aux.FrameID == v.frame {
		v.world = ev.Context.UniqueID
	}
}

// contextDestroyed ends the context with the unique id and returns its
// pending values as samples.
func (v *vitals) contextDestroyed(unique string) []Sample {
	v.mu.Lock()
	defer v.mu.Unlock()
	for id, u := range v.live {
		if u == unique {
			return v.end(id)
		}
	}
	return nil
}

// contextsCleared ends every context (the document is gone) and returns
// their pending values as samples.
func (v *vitals) contextsCleared() []Sample {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []Sample
	for id := range v.live {
		out = append(out, v.end(id)...)
	}
	v.world = ""
	return out
}

// end forgets the context id and returns its pending values as samples.
// The caller holds mu.
func (v *vitals) end(id runtime.ExecutionContextID) []Sample {
	now := time.Now()
	var out []Sample
	for _, r := range v.pending[id] {
		if s, ok := r.sample(now); ok {
			out = append(out, s)
		}
	}
	delete(v.pending, id)
	if v.world == v.live[id] {
		v.world = ""
	}
	delete(v.live, id)
	return out
}

// bindingCalled takes a report of the script: a final one becomes a
// sample, a provisional one replaces its predecessor. Calls from a context
// that ended are ignored.
func (v *vitals) bindingCalled(ev *runtime.EventBindingCalled) (Sample, bool) {
	if ev.Name != vitalsBinding {
		return Sample{}, false
	}
	var r vitalReport
	if err := json.Unmarshal([]byte(ev.Payload), &r); err != nil {
		return Sample{}, false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	id := ev.ExecutionContextID
	if _, ok := v.live[id]; !ok {
		return Sample{}, false
	}
	if r.Final {
		delete(v.pending[id], r.Name)
		return r.sample(time.Now())
	}
	if v.pending[id] == nil {
		v.pending[id] = map[string]vitalReport{}
	}
	v.pending[id][r.Name] = r
	return Sample{}, false
}

// flush asks the main frame's script for its final values, and returns
// them as samples. A page with no script (about:blank, a data: URL) has
// none.
func (v *vitals) flush(ctx context.Context, t *chromedp.Target) ([]Sample, error) {
	v.mu.Lock()
	world := v.world
	v.mu.Unlock()
	if world == "" {
		return nil, nil
	}
	reports, err := chromedp.Evaluate[[]vitalReport](`typeof flushVitals === "function" ? flushVitals() : []`,
		func(p *runtime.EvaluateParams) { p.UniqueContextID = world }, chromedp.EvalAwaitPromise)(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("flushing web vitals: %w", err)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	now := time.Now()
	var out []Sample
	for id, u := range v.live {
		if u != world {
			continue
		}
		for _, r := range reports {
			delete(v.pending[id], r.Name)
		}
	}
	for _, r := range reports {
		if s, ok := r.sample(now); ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// endAll ends every context, for a page that closes, and returns their
// pending values as samples.
func (v *vitals) endAll() []Sample {
	return v.contextsCleared()
}
