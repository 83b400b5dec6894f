package runner

import (
	"bytes"
	"context"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/usefullatency/usefullatency/executor"
	"github.com/usefullatency/usefullatency/js"
)

// TestInitParallelKeepsIDOrder: workers take ids in the order they start
// but finish in any order; a scenario's VUs still come in the order of
// their ids (externally-controlled and ramping executors activate them
// from the first).
func TestInitParallelKeepsIDOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var errs bytes.Buffer
	test, err := Load("testdata/once.js", map[string]string{}, &errs)
	if err != nil {
		t.Fatal(err)
	}
	var calls, next atomic.Int64
	second := make(chan struct{}) // the first call takes its id after the second
	newVU := func(ctx context.Context) (*js.VU, error) {
		n := calls.Add(1)
		if n == 1 {
			<-second
		}
		id := next.Add(1)
		if n == 2 {
			close(second)
		}
		return test.Bundle.NewVU(ctx, id, test.Run)
	}
	var vus []executor.VU
	if err := initParallel(context.Background(), []*[]executor.VU{&vus}, []int64{4}, newVU); err != nil {
		t.Fatal(err)
	}
	for i, vu := range vus {
		if vu.ID() != int64(i+1) {
			t.Fatalf("VU %d of the scenario has id %d, want %d", i, vu.ID(), i+1)
		}
	}
}
