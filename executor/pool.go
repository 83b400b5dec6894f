package executor

import (
	"context"
	"sync"
	"sync/atomic"
)

// pool hands idle VUs to an arrival-rate executor and grows in the
// background, one VU per dropped iteration, up to max. Idle VUs form a
// stack: the VU that finished last runs next, so only about as many VUs as
// there are concurrent iterations ever work (and hold connections and
// warm memory); the others stay as cheap as when they were initialised.
type pool struct {
	mu      sync.Mutex
	idle    []VU
	max     int64
	owned   atomic.Int64 // initialised or being initialised
	newVU   func(ctx context.Context) (VU, error)
	stats   *Stats
	growing sync.WaitGroup
	warned  atomic.Bool
	warn    func(string)
}

func newPool(vus []VU, maxVUs int64, newVU func(context.Context) (VU, error), stats *Stats, warn func(string)) *pool {
	// The idle list holds the VUs initialised up front; it grows with the
	// ones started on demand, so a huge maxVUs reserves nothing.
	p := &pool{idle: make([]VU, 0, len(vus)), max: maxVUs, newVU: newVU, stats: stats, warn: warn}
	// Reversed, so the first VUs initialised are the first ones used.
	for i := len(vus) - 1; i >= 0; i-- {
		p.idle = append(p.idle, vus[i])
	}
	p.owned.Store(int64(len(vus)))
	stats.Initialised.Store(int64(len(vus)))
	return p
}

// tryGet returns the most recently idle VU, or nil, without waiting.
func (p *pool) tryGet() VU {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.idle)
	if n == 0 {
		return nil
	}
	vu := p.idle[n-1]
	p.idle = p.idle[:n-1]
	return vu
}

// idleCount returns the number of idle VUs.
func (p *pool) idleCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.idle)
}

// put returns a VU to the pool.
func (p *pool) put(vu VU) {
	p.mu.Lock()
	p.idle = append(p.idle, vu)
	p.mu.Unlock()
}

// growBy starts initialising one more VU per dropped iteration, n of
// them, as far as max allows; once at max it warns once.
func (p *pool) growBy(ctx context.Context, scenario string, n int64) {
	if p.newVU == nil {
		return
	}
	for ; n > 0; n-- {
		if p.owned.Add(1) > p.max {
			p.owned.Add(-1)
			if !p.warned.Swap(true) && p.warn != nil {
				p.warn("scenario " + scenario + ": insufficient VUs, reached maxVUs; iterations are being dropped")
			}
			return
		}
		p.growing.Add(1)
		go func() {
			defer p.growing.Done()
			vu, err := p.newVU(ctx)
			if err != nil {
				p.owned.Add(-1)
				return
			}
			p.stats.Initialised.Add(1)
			p.put(vu)
		}()
	}
}
