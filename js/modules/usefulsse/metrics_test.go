package usefulsse

import (
	"testing"

	"github.com/usefullatency/usefullatency/metrics"
)

// A VU's requests recorded one after the other share one samples buffer,
// handed back cleared: it keeps no tags of an earlier request alive.
// Requests recorded at once get buffers of their own.
func TestSampleSlotReusesOneBuffer(t *testing.T) {
	var slot sampleSlot
	reg := metrics.NewRegistry()
	m := reg.MustNewMetric("reqs", metrics.Counter)
	b := slot.take()
	*b = append(*b, metrics.Sample{Metric: m, Tags: metrics.Tags{}.With("status", "200"), Value: 1})
	first := &(*b)[:1][0]
	slot.give(b)
	if len(*b) != 0 {
		t.Fatalf("a buffer handed back holds %d samples, want 0", len(*b))
	}
	if s := (*b)[:1][0]; s.Metric != nil || s.Tags != nil {
		t.Fatalf("a buffer handed back still holds %+v", s)
	}
	again := slot.take()
	if &(*again)[:1][0] != first {
		t.Fatal("the next request got a new buffer, want the kept one")
	}
	if other := slot.take(); &(*other)[:1][0] == first {
		t.Fatal("a request recorded at once with another got the same buffer")
	}
}
