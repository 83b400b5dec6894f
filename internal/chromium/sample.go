package chromium

import (
	"context"
	"sync"
	"time"
)

// The metrics a page reports, named as k6's browser module names them.
// Times are in milliseconds, data in bytes, failures 0 or 1, and the layout
// shift score has no unit.
const (
	// MetricDataReceived is a Counter: the bytes a request received over
	// the network (headers and encoded body; 0 for a cache hit).
	MetricDataReceived = "browser_data_received"
	// MetricDataSent is a Counter: the bytes a request sent, its request
	// line, headers and body as HTTP/1.1 would write them.
	MetricDataSent = "browser_data_sent"
	// MetricHTTPReqDuration is a Trend of times: from the moment the
	// browser sent a request to the moment its last byte arrived.
	MetricHTTPReqDuration = "browser_http_req_duration"
	// MetricHTTPReqFailed is a Rate: 1 for a request that failed to load or
	// whose status is outside 200–399, else 0.
	MetricHTTPReqFailed = "browser_http_req_failed"
	// MetricWebVitalCLS is a Trend of unitless scores: Cumulative Layout
	// Shift.
	MetricWebVitalCLS = "browser_web_vital_cls"
	// MetricWebVitalFCP is a Trend of times: First Contentful Paint.
	MetricWebVitalFCP = "browser_web_vital_fcp"
	// MetricWebVitalFID is a Trend of times: First Input Delay. k6's
	// documentation deprecates it in favour of INP; it is still reported.
	MetricWebVitalFID = "browser_web_vital_fid"
	// MetricWebVitalINP is a Trend of times: Interaction to Next Paint.
	MetricWebVitalINP = "browser_web_vital_inp"
	// MetricWebVitalLCP is a Trend of times: Largest Contentful Paint.
	MetricWebVitalLCP = "browser_web_vital_lcp"
	// MetricWebVitalTTFB is a Trend of times: Time to First Byte of the
	// document.
	MetricWebVitalTTFB = "browser_web_vital_ttfb"
)

// Sample is one measurement of a page, for the metrics engine.
type Sample struct {
	// Metric is one of the Metric* names.
	Metric string
	// Value is in milliseconds for times, bytes for data, 0 or 1 for
	// failures, and unitless for CLS.
	Value float64
	// Time is when the measured thing ended: the last byte of a request,
	// or the moment a web vital was reported.
	Time time.Time
	// Tags describe the sample: url and name (the URL), method, status,
	// proto, resource_type, from_cache, from_prefetch_cache and
	// from_service_worker for requests; url, name and rating for web
	// vitals. The map belongs to the receiver.
	Tags map[string]string
}

// sampleQueue hands a page's samples to the sink in order, from a goroutine
// of its own, so that the protocol's event loop never waits on the sink. It
// has no bound: a page makes a few samples per request, and the loop must
// not block.
type sampleQueue struct {
	sink func(Sample)
	wake chan struct{}
	done chan struct{}

	mu     sync.Mutex
	items  []Sample
	closed bool
}

// newSampleQueue starts delivering to sink until close is called or life
// ends.
func newSampleQueue(life context.Context, sink func(Sample)) *sampleQueue {
	q := &sampleQueue{sink: sink, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go q.run(life)
	return q
}

// push queues samples; after close it drops them.
func (q *sampleQueue) push(samples ...Sample) {
	if len(samples) == 0 {
		return
	}
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	q.items = append(q.items, samples...)
	q.mu.Unlock()
	q.signal()
}

// close delivers what is queued, stops the queue and waits until the sink
// has seen the last sample.
func (q *sampleQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.signal()
	<-q.done
}

func (q *sampleQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// run delivers batches until the queue is closed and empty. When life ends
// it closes the queue itself, so what was queued still reaches the sink.
func (q *sampleQueue) run(life context.Context) {
	defer close(q.done)
	for {
		batch, closed := q.take()
		for _, s := range batch {
			q.sink(s)
		}
		if closed {
			if len(batch) == 0 {
				return
			}
			continue
		}
		select {
		case <-q.wake:
		case <-life.Done():
			q.mu.Lock()
			q.closed = true
			q.mu.Unlock()
		}
	}
}

// take empties the queue.
func (q *sampleQueue) take() ([]Sample, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	batch := q.items
	q.items = nil
	return batch, q.closed
}
