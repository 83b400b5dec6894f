package runner

import (
	"context"
	"runtime"
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
	if first == nil && ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return first
}
