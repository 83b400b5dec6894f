package chromium

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestSampleQueueDeliversInOrderBeforeClose(t *testing.T) {
	var mu sync.Mutex
	var got []float64
	// The sink holds the first sample until every one was pushed, so the
	// queue has backed up when close is called.
	release := make(chan struct{})
	q := newSampleQueue(context.Background(), func(s Sample) {
		<-release
		mu.Lock()
		got = append(got, s.Value)
		mu.Unlock()
	})
	const n = 500
	for i := range n {
		q.push(Sample{Value: float64(i)})
	}
	close(release)
	q.close()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != n {
		t.Fatalf("close returned after %d of %d samples", len(got), n)
	}
	for i, v := range got {
		if v != float64(i) {
			t.Fatalf("sample %d is %v: out of order", i, v)
		}
	}
	q.push(Sample{Value: -1})
	if len(got) != n {
		t.Fatal("a sample pushed after close was delivered")
	}
}

func TestSampleQueueStopsWithItsPage(t *testing.T) {
	life, end := context.WithCancel(context.Background())
	delivered := make(chan Sample, 10)
	q := newSampleQueue(life, func(s Sample) { delivered <- s })
	q.push(Sample{Metric: "a"})
	end()
	select {
	case <-q.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the queue outlived its page")
	}
	if len(delivered) != 1 {
		t.Fatalf("%d samples delivered, want the 1 queued before the end", len(delivered))
	}
}
