// Command vufloor is the floor of an idle VU's memory: what the JavaScript
// runtime itself holds per VU for a script that does nothing, with none of
// the runner's globals or modules. It builds N bare sobek runtimes, each
// evaluating one compiled ES module (the same record for all, as the
// runner shares its compiled modules), and prints the live heap each one
// adds. bench/run.sh (section "idle") prints it next to the runner's idle
// VU.
//
//	go run ./bench/vufloor -n 2000
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"

	"github.com/grafana/sobek"
)

// script is the module every runtime evaluates: an empty default
// function, like an idle VU's.
const script = "export default function () {}\n"

func main() {
	n := flag.Int("n", 2000, "runtimes to build")
	flag.Parse()
	if err := run(*n); err != nil {
		fmt.Fprintln(os.Stderr, "vufloor:", err)
		os.Exit(1)
	}
}

// run builds n runtimes and prints the live heap per runtime.
func run(n int) error {
	resolve := func(any, string) (sobek.ModuleRecord, error) {
		return nil, fmt.Errorf("the floor's module imports nothing")
	}
	m, err := sobek.ParseModule("floor.js", script, resolve)
	if err != nil {
		return err
	}
	if err := m.Link(); err != nil {
		return err
	}
	build := func(k int) ([]*sobek.Runtime, error) {
		rts := make([]*sobek.Runtime, k)
		for i := range rts {
			rt := sobek.New()
			p := rt.CyclicModuleRecordEvaluate(m, resolve)
			if p.State() != sobek.PromiseStateFulfilled {
				return nil, fmt.Errorf("module evaluation: %v", p.Result())
			}
			if _, ok := sobek.AssertFunction(rt.GetModuleInstance(m).GetBindingValue("default")); !ok {
				return nil, fmt.Errorf("no default function")
			}
			rts[i] = rt
		}
		return rts, nil
	}
	warm, err := build(10)
	if err != nil {
		return err
	}
	before := liveHeap()
	rts, err := build(n)
	if err != nil {
		return err
	}
	per := float64(liveHeap()-before) / float64(n)
	runtime.KeepAlive(warm)
	runtime.KeepAlive(rts)
	fmt.Printf("vufloor: %d bare runtimes, each evaluating one ES module: %.0f bytes (%.1f KB) of live heap per runtime\n", n, per, per/1024)
	return nil
}

// liveHeap returns the bytes of live heap objects after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
