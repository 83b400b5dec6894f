package executor

import (
	"context"
	"sync"
	"sync/atomic"
)

// pool hands idle VUs to an arrival-rate executor and grows in the
// background, one VU per dropped iteration, up to max.
type pool struct {
	idle    chan VU
	max     int64
	owned   atomic.Int64 // initialised or being initialised
	newVU   func(ctx context.Context) (VU, error)
	stats   *Stats
	growing sync.WaitGroup
	warned  atomic.Bool
	warn    func(string)
}

func newPool(vus []VU, maxVUs int64, newVU func(context.Context) (VU, error), stats *Stats, warn func(string)) *pool {
	p := &pool{idle: make(chan VU, max(maxVUs, int64(len(vus)))), max: maxVUs, newVU: newVU, stats: stats, warn: warn}
	for _, vu := range vus {
		p.idle <- vu
	}
	p.owned.Store(int64(len(vus)))
	stats.Initialised.Store(int64(len(vus)))
	return p
}

// tryGet returns an idle VU or nil, without waiting.
func (p *pool) tryGet() VU {
	select {
	case vu := <-p.idle:
		return vu
	default:
		return nil
	}
}

func (p *pool) put(vu VU) { p.idle <- vu }

// grow starts initialising one more VU unless the pool is at max; at max
// it warns once.
func (p *pool) grow(ctx context.Context, scenario string) {
	if p.newVU == nil {
		return
	}
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
