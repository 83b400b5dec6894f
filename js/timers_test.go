package js_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
)

// timerScript wraps body as the default function of a script whose
// result() export returns what the callbacks pushed to out, comma-joined.
func timerScript(init, body string) string {
	return "import * as timers from 'k6/timers';\nconst out = [];\n" + init +
		"\nexport function result() { return out.join(','); }\n" +
		"export function probe() { return new Promise((r) => setTimeout(() => r(out.length ? 'stale: ' + out : 'fresh'), 0)); }\n" +
		"export default async function () {\n" + body + "\n}"
}

func result(t *testing.T, vu *js.VU) string {
	t.Helper()
	v, err := vu.Call(context.Background(), "result")
	if err != nil {
		t.Fatal(err)
	}
	return v.String()
}

// TestTimerOrder runs each scenario as one iteration and compares the order
// in which the callbacks ran.
func TestTimerOrder(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"0 ms after sync code and resolved promise jobs", `
setTimeout(() => out.push('t0'), 0);
Promise.resolve().then(() => out.push('p1')).then(() => out.push('p2'));
out.push('sync');`, "sync,p1,p2,t0"},
		{"equal delays in creation order", `
setTimeout(() => out.push('a'), 10); setTimeout(() => out.push('b'), 0);
setTimeout(() => out.push('c'), 10); setTimeout(() => out.push('d'), 0);
setTimeout(() => out.push('e'), 0);`, "b,d,e,a,c"},
		{"promise jobs run between timer callbacks", `
setTimeout(() => { out.push('a'); Promise.resolve().then(() => out.push('pa')); }, 0);
setTimeout(() => out.push('b'), 0);`, "a,pa,b"},
		{"a timer set in a callback runs after those already due", `
setTimeout(() => { out.push('a'); setTimeout(() => out.push('c'), 0); }, 0);
setTimeout(() => out.push('b'), 0);`, "a,b,c"},
		{"clearTimeout before firing", `
const x = setTimeout(() => out.push('x'), 0);
setTimeout(() => out.push('y'), 0);
clearTimeout(x);`, "y"},
		{"clearTimeout from an earlier callback of the same batch", `
setTimeout(() => { out.push('a'); clearTimeout(b); }, 0);
const b = setTimeout(() => out.push('b'), 0);`, "a"},
		{"clearing unknown ids is a no-op", `
clearTimeout(12345); clearTimeout('x'); clearInterval(undefined);
setTimeout(() => out.push('ok'), 0);`, "ok"},
		{"setInterval fires N times then cleared", `
let n = 0;
const id = setInterval((p) => { out.push(p + (++n)); if (n === 3) clearInterval(id); }, 2, 'i');`, "i1,i2,i3"},
		{"extra arguments reach the callback", `
setTimeout((a, b) => out.push(a + b), 0, 'x', 'y');`, "xy"},
		{"negative and NaN delays are 0", `
setTimeout(() => out.push('late'), 15);
setTimeout(() => out.push('neg'), -10);
setTimeout(() => out.push('nan'), 'abc');`, "neg,nan,late"},
		{"await a timer promise", `
await new Promise((r) => setTimeout(r, 5));
out.push('after');`, "after"},
		{"k6/timers shares the globals' ids", `
const id = setTimeout(() => out.push('global'), 0);
timers.clearTimeout(id);
const id2 = timers.setTimeout(() => out.push('module'), 0);
if (id2 <= id) throw new Error('ids must not restart');`, "module"},
		{"ids are positive integers", `
const id = setTimeout(() => {}, 0);
out.push(Number.isInteger(id) && id > 0);`, "true"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			vu := jstest.NewVU(t, timerScript("", tc.body))
			if err := vu.RunIteration(context.Background(), js.Iteration{Exec: "default"}); err != nil {
				t.Fatal(err)
			}
			if got := result(t, vu); got != tc.want {
				t.Fatalf("order = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestIterationWaitsForTimers checks that an iteration ends only after
// its last timer ran.
func TestIterationWaitsForTimers(t *testing.T) {
	vu := jstest.NewVU(t, timerScript("", `setTimeout(() => out.push('late'), 30);`))
	start := time.Now()
	if err := vu.RunIteration(context.Background(), js.Iteration{Exec: "default"}); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 30*time.Millisecond {
		t.Fatalf("iteration ended after %v, before its 30 ms timer", el)
	}
	if got := result(t, vu); got != "late" {
		t.Fatalf("out = %q", got)
	}
}

// TestTimersInInit checks that init code may set timers and that the VU
// is ready only after they ran.
func TestTimersInInit(t *testing.T) {
	vu := jstest.NewVU(t, timerScript(`setTimeout((v) => out.push(v), 5, 'init');`, ""))
	if got := result(t, vu); got != "init" {
		t.Fatalf("out = %q, want the init timer to have run", got)
	}
}

func TestTimerErrors(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"setTimeout needs a function", `setTimeout('out.push(1)', 0);`, `TypeError: setTimeout: the callback must be a function, got "out.push(1)"`},
		{"setInterval needs a function", `setInterval(undefined, 5);`, "TypeError: setInterval: the callback must be a function, got undefined"},
		{"an exception in a callback fails the iteration at once", `
setTimeout(() => { throw new Error('in timer'); }, 0);
setTimeout(() => out.push('never'), 60000);`, "in timer"},
		{"a synchronous exception drops pending timers at once", `
setTimeout(() => out.push('never'), 60000);
throw new Error('sync boom');`, "sync boom"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			vu := jstest.NewVU(t, timerScript("", tc.body))
			start := time.Now()
			err := vu.RunIteration(context.Background(), js.Iteration{Exec: "default"})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
			if el := time.Since(start); el > 10*time.Second {
				t.Fatalf("the failed iteration took %v: it waited for its dropped timers", el)
			}
			assertTimersUsable(t, vu)
		})
	}
}

// TestSyncExceptionDropsTimers checks that a plain (not async) function
// that throws after setting a long timer fails at once.
func TestSyncExceptionDropsTimers(t *testing.T) {
	vu := jstest.NewVU(t, timerScript("", "")+`
export function plain() { setInterval(() => out.push('never'), 60000); throw new Error('plain boom'); }`)
	start := time.Now()
	err := vu.RunIteration(context.Background(), js.Iteration{Exec: "plain"})
	if err == nil || !strings.Contains(err.Error(), "plain boom") {
		t.Fatalf("err = %v, want plain boom", err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("the failed iteration took %v: it waited for its dropped timer", el)
	}
	assertTimersUsable(t, vu)
}

// TestInterruptedIterationCancelsTimers interrupts an iteration that waits
// for a one-minute timer, as soon as the script logged that it set it.
func TestInterruptedIterationCancelsTimers(t *testing.T) {
	b, err := js.NewBundle(writeScript(t, timerScript("", `
setTimeout(() => out.push('never'), 60000);
setInterval(() => out.push('tick'), 60000);
console.log('armed');`)))
	if err != nil {
		t.Fatal(err)
	}
	run, _ := newRun()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run.Log = &onWrite{match: "armed", do: cancel}
	vu, err := b.NewVU(context.Background(), 1, run)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := vu.RunIteration(ctx, js.Iteration{Exec: "default"}); !errors.Is(err, js.ErrInterrupted) {
		t.Fatalf("err = %v, want interrupted", err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("the interrupted iteration took %v", el)
	}
	if got := result(t, vu); got != "" {
		t.Fatalf("out = %q, want no callback of the interrupted iteration", got)
	}
	assertTimersUsable(t, vu)
}

// assertTimersUsable runs a 0 ms timer in a fresh call of vu: timers of an
// earlier, failed call must neither block it nor run in it.
func assertTimersUsable(t *testing.T, vu *js.VU) {
	t.Helper()
	v, err := vu.Call(context.Background(), "probe")
	if err != nil {
		t.Fatalf("a later call: %v", err)
	}
	if got := v.String(); got != "fresh" {
		t.Fatalf("a later call's timers gave %q, want fresh", got)
	}
}

// onWrite calls do once when a write contains match.
type onWrite struct {
	match string
	do    func()
	once  sync.Once
}

func (w *onWrite) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.match) {
		w.once.Do(w.do)
	}
	return len(p), nil
}
