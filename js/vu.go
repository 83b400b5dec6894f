package js

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	k6timers "github.com/usefullatency/usefullatency/js/modules/timers"
	"github.com/usefullatency/usefullatency/metrics"
)

// VU is one virtual user: a runtime that evaluated the bundle, its event
// loop and its run state. A VU is used by one goroutine at a time.
type VU struct {
	bundle    *Bundle
	rt        *sobek.Runtime
	loop      *EventLoop
	state     *modules.State
	ctx       context.Context
	inInit    bool
	module    sobek.ModuleInstance
	setupData sobek.Value
	timers    *k6timers.Timers
	// global is the VU's global object, with its lazy globals.
	global *globalObject
	// cjs are the CommonJS files this VU ran.
	cjs map[*cjsRecord]*cjsInstance
}

var _ modules.VU = (*VU)(nil)

// Runtime returns the VU's JavaScript runtime.
func (vu *VU) Runtime() *sobek.Runtime { return vu.rt }

// Context returns the context of the current call into the VU.
func (vu *VU) Context() context.Context {
	if vu.ctx == nil {
		return context.Background()
	}
	return vu.ctx
}

// InInit reports whether the VU is evaluating init code.
func (vu *VU) InInit() bool { return vu.inInit }

// State returns the VU's run state.
func (vu *VU) State() *modules.State { return vu.state }

// RegisterCallback reserves a slot on the VU's event loop.
func (vu *VU) RegisterCallback() func(func() error) { return vu.loop.RegisterCallback() }

// Timers returns the VU's timers: the global setTimeout and its siblings,
// which the k6/timers module exports too.
func (vu *VU) Timers() *k6timers.Timers { return vu.timers }

var _ k6timers.Holder = (*VU)(nil)

// NewVU creates VU id (0 for the VU that runs setup, teardown and
// handleSummary) and evaluates the bundle's init code in it. Errors are
// exceptions of init code.
func (b *Bundle) NewVU(ctx context.Context, id int64, run *modules.Run) (*VU, error) {
	rt := sobek.New()
	rt.SetFieldNameMapper(sobek.TagFieldNameMapper("js", true))
	vu := &VU{
		bundle: b, rt: rt, loop: NewEventLoop(), ctx: ctx, inInit: true,
		state: &modules.State{Run: run, VUID: id, VUIDInTest: id, Tags: run.Tags, Group: run.Root, Turn: run.JS.Turn()},
	}
	if turn := vu.state.Turn; turn != nil {
		vu.loop.idle = turn.Release
		vu.loop.busy = func() { turn.Acquire(vu.ctx) }
	}
	vu.timers = k6timers.NewTimers(vu)
	vu.installGlobals()
	if err := vu.evaluateUntil(ctx); err != nil {
		return nil, err
	}
	vu.inInit = false
	return vu, nil
}

// evaluateUntil runs the init code, interrupting it when ctx ends (a
// signal during initialisation), even inside an endless loop: it then
// returns ErrInterrupted.
func (vu *VU) evaluateUntil(ctx context.Context) error {
	interrupted := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		vu.rt.Interrupt(ErrInterrupted)
		close(interrupted)
	})
	err := vu.evaluate()
	if !stop() {
		// The context ended during the init code: whatever it returned,
		// it was interrupted.
		<-interrupted
		vu.rt.ClearInterrupt()
		err = ErrInterrupted
	}
	return err
}

func (vu *VU) evaluate() error {
	var promise *sobek.Promise
	defer vu.bundle.startEvaluation(vu)()
	outer := vu.ctx
	ctx, cancel := context.WithCancel(vu.Context())
	defer func() { cancel(); vu.ctx = outer }()
	vu.ctx = ctx
	err := vu.loop.Run(func() error {
		promise = vu.rt.CyclicModuleRecordEvaluate(vu.bundle.main, vu.bundle.resolve)
		return nil
	}, func(error) { cancel() })
	if err == nil && promise.State() == sobek.PromiseStateRejected {
		err = rejection(promise.Result())
	}
	if err != nil {
		return classify(err)
	}
	vu.module = vu.rt.GetModuleInstance(vu.bundle.main)
	return nil
}

func rejection(v sobek.Value) error {
	if ex, ok := v.Export().(error); ok {
		return classify(ex)
	}
	if obj, ok := v.(*sobek.Object); ok {
		if stack := obj.Get("stack"); stack != nil && !sobek.IsUndefined(stack) {
			return &ScriptError{Message: stack.String()}
		}
	}
	return &ScriptError{Message: fmt.Sprint(v)}
}

// Export returns the value the main module exports under name, or nil. The
// name is the exported one: `export default function run() {}`,
// `export { main as default }` and `export { a as b }` bind a local name
// that differs from it, and a re-export lives in another module.
func (vu *VU) Export(name string) sobek.Value {
	v := vu.exportValue(name)
	if v == nil || sobek.IsUndefined(v) {
		return nil
	}
	return v
}

func (vu *VU) exportValue(name string) sobek.Value {
	if cjs, ok := vu.module.(*cjsInstance); ok {
		return cjs.mainExport(name)
	}
	binding := vu.bundle.resolveExport(name)
	if binding == nil {
		return nil
	}
	if binding.BindingName == "" { // export * as name from '…'
		return vu.rt.NamespaceObjectFor(binding.Module)
	}
	inst := vu.rt.GetModuleInstance(binding.Module)
	if inst == nil {
		return nil
	}
	return inst.GetBindingValue(binding.BindingName)
}

// HasFunction reports whether the main module exports a function name.
func (vu *VU) HasFunction(name string) bool {
	_, ok := sobek.AssertFunction(vu.Export(name))
	return ok
}

// ExportedOptions returns the exported `options` as plain Go values.
func (vu *VU) ExportedOptions() map[string]any {
	v := vu.Export("options")
	if v == nil {
		return nil
	}
	m, _ := v.Export().(map[string]any)
	return m
}

// SetSetupData gives iterations the JSON data setup() returned.
func (vu *VU) SetSetupData(data []byte) error {
	if len(data) == 0 {
		vu.setupData = sobek.Undefined()
		return nil
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	vu.setupData = vu.rt.ToValue(v)
	return nil
}

// Call runs the exported function name with args and waits for the event
// loop to drain and any returned promise to settle. It returns the
// function's (or promise's) result. ctx cancels the call.
func (vu *VU) Call(ctx context.Context, name string, args ...sobek.Value) (sobek.Value, error) {
	fn, ok := sobek.AssertFunction(vu.Export(name))
	if !ok {
		return nil, fmt.Errorf("function %q is not exported by %s", name, vu.bundle.Path)
	}
	// The call's own context also ends when the call fails, so that work
	// still holding an event-loop slot (timers, requests) lets go at once.
	callCtx, cancel := context.WithCancel(ctx)
	vu.ctx = callCtx
	// The interrupt runs on a goroutine of its own: once it started, wait
	// for it, so that it can't land after ClearInterrupt and stop the VU's
	// next call.
	interrupted := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		vu.rt.Interrupt(ErrInterrupted)
		close(interrupted)
	})
	defer func() {
		if !stop() {
			<-interrupted
		}
		cancel()
		vu.ctx = ctx
		vu.rt.ClearInterrupt()
	}()
	// The function runs with the VU's JavaScript turn (run.JS), given up
	// whenever the VU waits and at the end of the call.
	vu.state.Turn.Acquire(callCtx)
	defer vu.state.Turn.Release()
	var result sobek.Value
	err := vu.loop.Run(func() error {
		var err error
		if result, err = fn(sobek.Undefined(), args...); err == nil {
			err = vu.cancelOnReject(result, cancel)
		}
		return err
	}, func(error) { cancel() })
	if err == nil && ctx.Err() != nil {
		// Stopped while waiting (sleep, a stream): the function returned
		// only because its context ended, before the interrupt landed.
		err = ErrInterrupted
	}
	if err != nil {
		return nil, classify(err)
	}
	if p, ok := result.Export().(*sobek.Promise); ok {
		switch p.State() {
		case sobek.PromiseStateRejected:
			return nil, rejection(p.Result())
		case sobek.PromiseStateFulfilled:
			return p.Result(), nil
		}
	}
	return result, nil
}

// cancelOnReject makes a rejection of the promise v (an async function's
// result) cancel the call at once, as an exception would: timers still
// pending are dropped instead of waited for. Other values are left alone.
func (vu *VU) cancelOnReject(v sobek.Value, cancel context.CancelFunc) error {
	p, ok := v.Export().(*sobek.Promise)
	if !ok || p.State() == sobek.PromiseStateFulfilled {
		return nil
	}
	if p.State() == sobek.PromiseStateRejected {
		cancel()
		return nil
	}
	then, ok := sobek.AssertFunction(v.ToObject(vu.rt).Get("then"))
	if !ok {
		return nil
	}
	onReject := func(sobek.FunctionCall) sobek.Value {
		cancel()
		return sobek.Undefined()
	}
	_, err := then(v, sobek.Undefined(), vu.rt.ToValue(onReject))
	return err
}

// Iteration describes one iteration to run.
type Iteration struct {
	Exec     string
	Scenario *modules.ScenarioInfo
	// Tags are the tags of the iteration's samples (run, scenario tags and
	// the scenario name).
	Tags metrics.Tags
	// Env overlays the scenario's env on __ENV.
	Env map[string]string
	// InInstance and InTest are the iteration's index in its scenario on
	// this instance and across the instances of a segment sequence.
	InInstance, InTest int64
	// Scheduled is when the iteration was due.
	Scheduled time.Time
	// Row is a trace-replay iteration's row, a JSON object
	// (exec.scenario.row); nil otherwise.
	Row []byte
}

// RunIteration runs one iteration and emits iterations and
// iteration_duration unless it was interrupted.
func (vu *VU) RunIteration(ctx context.Context, it Iteration) error {
	st := vu.state
	if st.Scenario != it.Scenario {
		st.Scenario, st.VUScenarioIteration = it.Scenario, 0
	}
	st.Tags, st.Group = it.Tags, st.Run.Root
	st.IterationInInstance, st.IterationInTest, st.Scheduled = it.InInstance, it.InTest, it.Scheduled
	st.Row = it.Row
	for k, v := range st.VUTags {
		st.Tags = st.Tags.With(k, v)
	}
	vu.setIterGlobals(it.Env)
	start := time.Now()
	_, err := vu.Call(ctx, it.Exec, vu.setupDataValue())
	end := time.Now()
	st.EndIteration()
	st.Iteration++
	st.VUScenarioIteration++
	var script *ScriptError
	if err != nil && !errors.As(err, &script) {
		return err
	}
	b := st.Run.Builtin
	st.Push(
		metrics.Sample{Metric: b.Iterations, Tags: st.Tags, Time: end, Value: 1},
		metrics.Sample{Metric: b.IterationDuration, Tags: st.Tags, Time: end,
			Value: float64(end.Sub(start)) / float64(time.Millisecond)},
	)
	return err
}

func (vu *VU) setupDataValue() sobek.Value {
	if vu.setupData == nil {
		return sobek.Undefined()
	}
	return vu.setupData
}

// ID returns the VU's id in the test (0 for the setup/teardown VU).
func (vu *VU) ID() int64 { return vu.state.VUID }

// SetupValue returns the setup data as a value of this VU's runtime.
func (vu *VU) SetupValue() sobek.Value { return vu.setupDataValue() }
