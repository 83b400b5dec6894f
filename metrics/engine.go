package metrics

import "sync"

// Engine folds samples into their metrics' sinks. Push is safe for
// concurrent use; every sample is counted exactly once.
type Engine struct {
	mu       sync.Mutex
	Registry *Registry
	outputs  []func([]Sample)
}

// NewEngine returns an engine over the metrics of reg.
func NewEngine(reg *Registry) *Engine {
	return &Engine{Registry: reg}
}

// Subscribe registers fn to receive every pushed batch, in push order, while
// the engine lock is held. fn must not block and must not keep the slice.
func (e *Engine) Subscribe(fn func([]Sample)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.outputs = append(e.outputs, fn)
}

// Push adds samples to their metrics and to the matching submetrics.
func (e *Engine) Push(samples ...Sample) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := range samples {
		s := &samples[i]
		s.Metric.Sink.Add(s.Value)
		for _, sub := range s.Metric.Submetrics {
			if s.Tags.Contains(sub.Selector) {
				sub.Metric.Sink.Add(s.Value)
			}
		}
	}
	for _, fn := range e.outputs {
		fn(samples)
	}
}

// Read runs fn with the sinks locked, so it sees a consistent aggregate.
func (e *Engine) Read(fn func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	fn()
}
