package output

import (
	"sync"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// buffer collects samples under its own lock and hands them, in order, to a
// flush function every interval and once more at Stop. Adding never
// blocks on I/O. It is the one periodic loop of the outputs: flush runs on
// the buffer's goroutine only (or on the caller of stop when the loop never
// started), so what flush owns needs no lock.
type buffer struct {
	mu       sync.Mutex
	samples  []metrics.Sample
	interval time.Duration
	flush    func([]metrics.Sample) error
	// flushIdle calls flush also when no sample arrived since the last
	// flush (with an empty batch), for an output that resends what it
	// aggregated every interval. False by default: an empty batch is
	// skipped.
	flushIdle bool
	// max, when > 0, bounds the samples held between two flushes: the
	// samples of a batch that does not fit are dropped and counted in
	// dropped. Zero (the default) holds every sample.
	max     int
	dropped int64
	done    chan struct{}
	stopped chan struct{}
	started bool
	err     error
}

func newBuffer(interval time.Duration, flush func([]metrics.Sample) error) *buffer {
	return &buffer{interval: interval, flush: flush, done: make(chan struct{}), stopped: make(chan struct{})}
}

// add appends copies of the samples, unless they exceed max.
func (b *buffer) add(samples []metrics.Sample) {
	b.mu.Lock()
	if b.max > 0 && len(b.samples)+len(samples) > b.max {
		b.dropped += int64(len(samples))
	} else {
		b.samples = append(b.samples, samples...)
	}
	b.mu.Unlock()
}

// droppedSamples returns how many samples add dropped so far.
func (b *buffer) droppedSamples() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dropped
}

// start runs the periodic flushes.
func (b *buffer) start() {
	b.started = true
	go func() {
		defer close(b.stopped)
		t := time.NewTicker(b.interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				b.flushNow()
			case <-b.done:
				b.flushNow()
				return
			}
		}
	}()
}

// flushNow writes what is buffered; the first error is kept for stop.
func (b *buffer) flushNow() {
	b.mu.Lock()
	batch := b.samples
	b.samples = nil
	b.mu.Unlock()
	if len(batch) == 0 && !b.flushIdle {
		return
	}
	if err := b.flush(batch); err != nil && b.err == nil {
		b.err = err
	}
}

// stop flushes the rest and returns the first write error. Without a
// start (the run failed before it began) it only flushes.
func (b *buffer) stop() error {
	if !b.started {
		b.flushNow()
		return b.err
	}
	close(b.done)
	<-b.stopped
	return b.err
}
