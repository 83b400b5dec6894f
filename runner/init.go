package runner

import (
	"cmp"
	"context"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/usefullatency/usefullatency/executor"
	"github.com/usefullatency/usefullatency/js"
)

// initParallel fills each *jobs[i] with counts[i] new VUs, initialising
// them on GOMAXPROCS workers. It returns the first error.
func initParallel(ctx context.Context, jobs []*[]executor.VU, counts []int64,
	newVU func(context.Context) (*js.VU, error)) error {
	type slot struct{ job, idx int }
	work := make(chan slot)
	for i, n := range counts {
		*jobs[i] = make([]executor.VU, n)
	}
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range work {
				vu, err := newVU(ctx)
				if err != nil {
					once.Do(func() { first = err; cancel() })
					continue
				}
				(*jobs[s.job])[s.idx] = vu
			}
		}()
	}
feed:
	for i, n := range counts {
		for k := range n {
			select {
			case work <- slot{i, int(k)}:
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(work)
	wg.Wait()
	for _, job := range jobs {
		// Workers take ids in the order they start, not in slot order: a
		// scenario's VUs are used in the order of their ids, as in k6.
		slices.SortFunc(*job, func(a, b executor.VU) int { return cmp.Compare(idOf(a), idOf(b)) })
	}
	if first == nil && ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return first
}

// idOf is a VU's id; an empty slot (its initialisation failed) sorts last.
func idOf(vu executor.VU) int64 {
	if vu == nil {
		return math.MaxInt64
	}
	return vu.ID()
}
