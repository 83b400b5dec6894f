package k6timers

import (
	"container/heap"
	"context"
	"math"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// maxDelay is the longest delay a timer waits: 2^31-1 ms, the largest
// delay browsers and Node.js accept. Longer delays are shortened to it.
const maxDelay = math.MaxInt32 * time.Millisecond

// Timers is the set of one VU's pending timers. Its callbacks run on the
// VU's event loop, so the call (an iteration, setup, init code) that set
// them does not end while one is pending. Timers due at the same time run
// in the order they were set. All its methods run on the VU's goroutine.
type Timers struct {
	vu     modules.VU
	lastID int64
	seq    uint64
	byID   map[int64]*timer
	queue  queue
	// ctx is the context of the call the pending timers belong to; when it
	// is done, they are dropped.
	ctx context.Context
	// wait is the event-loop slot held for the head of the queue, or nil.
	wait *wait
}

// wait is an event-loop slot held until the head timer is due, the call's
// context ends or a new head replaces it (stop is closed).
type wait struct {
	at   time.Time
	stop chan struct{}
}

// NewTimers returns an empty set of timers for vu.
func NewTimers(vu modules.VU) *Timers {
	return &Timers{vu: vu, byID: make(map[int64]*timer)}
}

// Names are the names of the timer functions, as Functions returns them.
var Names = []string{"setTimeout", "clearTimeout", "setInterval", "clearInterval"}

// Functions returns setTimeout, clearTimeout, setInterval and
// clearInterval bound to this set, by name.
func (t *Timers) Functions() map[string]any {
	fns := make(map[string]any, len(Names))
	for _, name := range Names {
		fns[name] = t.Function(name)
	}
	return fns
}

// Function returns the timer function name (one of Names) bound to this
// set, or nil for another name.
func (t *Timers) Function(name string) func(sobek.FunctionCall) sobek.Value {
	switch name {
	case "setTimeout":
		return t.setTimeout
	case "setInterval":
		return t.setInterval
	case "clearTimeout", "clearInterval":
		return t.clear
	}
	return nil
}

func (t *Timers) setTimeout(call sobek.FunctionCall) sobek.Value {
	return t.add("setTimeout", call, false)
}

func (t *Timers) setInterval(call sobek.FunctionCall) sobek.Value {
	return t.add("setInterval", call, true)
}

// add validates the arguments of setTimeout or setInterval (fn, ms,
// ...args), queues the timer and returns its id.
func (t *Timers) add(api string, call sobek.FunctionCall, interval bool) sobek.Value {
	rt := t.vu.Runtime()
	fn, ok := sobek.AssertFunction(call.Argument(0))
	if !ok {
		panic(rt.NewTypeError("%s: the callback must be a function, got %s", api, describe(call.Argument(0))))
	}
	t.dropStale()
	delay := Delay(call.Argument(1).ToFloat())
	var args []sobek.Value
	if len(call.Arguments) > 2 {
		args = append(args, call.Arguments[2:]...)
	}
	t.lastID++
	tm := &timer{id: t.lastID, fn: fn, args: args, every: delay, interval: interval, index: -1}
	t.byID[tm.id] = tm
	t.schedule(tm, time.Now().Add(delay))
	t.arm()
	return rt.ToValue(tm.id)
}

// clear cancels the timer with the id given, if pending; unknown ids and
// non-numbers are ignored, as in browsers.
func (t *Timers) clear(call sobek.FunctionCall) sobek.Value {
	t.dropStale()
	id := call.Argument(0).ToInteger()
	if tm, ok := t.byID[id]; ok {
		delete(t.byID, id)
		if tm.index >= 0 {
			heap.Remove(&t.queue, tm.index)
		}
		t.arm()
	}
	return sobek.Undefined()
}

// Delay converts a timer's ms argument to a duration: NaN and negative
// values are 0, values past 2^31-1 ms are that.
func Delay(ms float64) time.Duration {
	switch {
	case math.IsNaN(ms) || ms <= 0:
		return 0
	case ms >= float64(maxDelay/time.Millisecond):
		return maxDelay
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// schedule queues tm to be due at at, after the timers already due then.
func (t *Timers) schedule(tm *timer, at time.Time) {
	t.seq++
	tm.at, tm.seq = at, t.seq
	heap.Push(&t.queue, tm)
}

func describe(v sobek.Value) string {
	if v == nil || sobek.IsUndefined(v) {
		return "undefined"
	}
	if s, ok := v.Export().(string); ok {
		return `"` + s + `"`
	}
	return v.String()
}
