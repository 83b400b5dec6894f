package jstest

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
)

// WriteHeapProfile writes a heap profile of the live objects, after a
// collection, to path: what a memory budget test holds when a run asks
// for it (go tool pprof -sample_index=inuse_space path).
func WriteHeapProfile(t testing.TB, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		t.Fatal(err)
	}
}
