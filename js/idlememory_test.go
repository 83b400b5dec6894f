//go:build !race

package js_test

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
)

// idleVUBytes is the live heap of one initialised idle VU of
// bench/idle_pool.js, measured by TestIdleVUMemory on 2026-12-04 (28,200
// bytes, 27.5 KB; 30,200 before __ENV, __VU, __ITER and console were read
// in place, the global object's traps shared and native modules' exports
// asked for on first use). The test fails when a VU grows by more than 20 % over
// it: the globals or modules a script does not use are built again in
// every VU, say. Lower it when a change makes VUs smaller.
const idleVUBytes = 28_200

// TestIdleVUMemory builds idleVUs VUs of bench/idle_pool.js, as an
// arrival-rate scenario pre-allocates them, and checks the live heap each
// one adds (HeapAlloc after a collection, before and after) against
// idleVUBytes + 20 %. Live heap is deterministic enough for a budget;
// the process's RSS (bench/run.sh's idle section) adds the garbage
// collector's headroom and the runner's own memory. With
// IDLE_HEAP_PROFILE=file it writes a heap profile of the idle VUs, every
// allocation sampled (go tool pprof -sample_index=inuse_space file).
// Not built with the race detector, which allocates for itself.
func TestIdleVUMemory(t *testing.T) {
	const idleVUs = 1000
	b, err := js.NewBundle("../bench/idle_pool.js")
	if err != nil {
		t.Fatal(err)
	}
	profile := os.Getenv("IDLE_HEAP_PROFILE")
	if profile != "" {
		defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
		runtime.MemProfileRate = 1
	}
	run, _ := newRun()
	build := func(n int) []*js.VU {
		vus := make([]*js.VU, n)
		for i := range vus {
			if vus[i], err = b.NewVU(context.Background(), int64(i+1), run); err != nil {
				t.Fatal(err)
			}
		}
		return vus
	}
	// The first VUs build what every VU shares: compiled programs, sobek's
	// templates, the modules' registrations.
	warm := build(10)
	before := liveHeap()
	vus := build(idleVUs)
	perVU := float64(liveHeap()-before) / idleVUs
	runtime.KeepAlive(warm)
	if profile != "" {
		jstest.WriteHeapProfile(t, profile)
	}
	runtime.KeepAlive(vus)
	t.Logf("live heap per idle VU: %.0f bytes (%.1f KB), budget %.0f", perVU, perVU/1024, idleVUBytes*1.2)
	if perVU > idleVUBytes*1.2 {
		t.Errorf("an idle VU holds %.0f bytes of heap, more than %d + 20 %%: what does every VU build now? (IDLE_HEAP_PROFILE=file shows it)", perVU, idleVUBytes)
	}
}

// liveHeap returns the bytes of live heap objects after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
