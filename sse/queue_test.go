package sse

import (
	"errors"
	"net/http"
	"testing"
)

// TestQueueFromHeader checks Server-Timing and plain headers.
func TestQueueFromHeader(t *testing.T) {
	cases := []struct {
		name   string
		q      QueueSource
		header http.Header
		want   float64
		ok     bool
	}{
		{"server-timing", QueueSource{}, http.Header{"Server-Timing": {`db;dur=53, queue;dur=12.5;desc="wait"`}}, 12.5, true},
		{"server-timing second header", QueueSource{}, http.Header{"Server-Timing": {"db;dur=1", "Queue; dur = 7"}}, 7, true},
		{"server-timing quoted", QueueSource{}, http.Header{"Server-Timing": {`queue;desc="x";dur="3"`}}, 3, true},
		{"server-timing other metric", QueueSource{Metric: "wait"}, http.Header{"Server-Timing": {"queue;dur=1, wait;dur=9"}}, 9, true},
		{"server-timing absent", QueueSource{}, http.Header{"Server-Timing": {"db;dur=1"}}, 0, false},
		{"no dur", QueueSource{}, http.Header{"Server-Timing": {"queue"}}, 0, false},
		{"plain header", QueueSource{Header: "X-Queue-Ms"}, http.Header{"X-Queue-Ms": {"42ms"}}, 42, true},
		{"disabled", QueueSource{Header: "-"}, http.Header{"Server-Timing": {"queue;dur=1"}}, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.q.fromHeader(tc.header)
			if got != tc.want || ok != tc.ok {
				t.Errorf("got %v %v, want %v %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestQueueFromEvents checks the field source over streams.
func TestQueueFromEvents(t *testing.T) {
	cases := []struct {
		name string
		q    QueueSource
		body string
		want *float64
	}{
		{"top-level field", QueueSource{}, "event: meta\ndata: {\"queue_ms\": 30}\n\ndata: {\"delta\":\"x\"}\n\n", new(30.0)},
		{"inside business_state", QueueSource{}, "data: {\"delta\":\"\",\"business_state\":{\"queue_ms\":12}}\n\n", new(12.0)},
		{"string number", QueueSource{}, "data: {\"queue_ms\": \"8.5\"}\n\n", new(8.5)},
		{"custom path", QueueSource{Field: "meta.queue"}, "data: {\"meta\":{\"queue\":4}}\n\n", new(4.0)},
		{"after first text ignored", QueueSource{}, "data: {\"delta\":\"hi\"}\n\ndata: {\"delta\":\"\",\"queue_ms\":3}\n\n", nil},
		{"state event after text", QueueSource{}, "data: {\"delta\":\"hi\"}\n\ndata: {\"business_state\":{\"queue_ms\":3}}\n\n", new(3.0)},
		{"first one wins", QueueSource{}, "data: {\"queue_ms\": 1}\n\ndata: {\"queue_ms\": 2}\n\n", new(1.0)},
		{"disabled", QueueSource{Field: "-"}, "data: {\"queue_ms\": 1}\n\n", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := readStream(stringsReader(tc.body), &Request{Queue: tc.q, Dialect: DialectBusiness})
			switch {
			case tc.want == nil:
				null(t, "queue", res.Timings.Queue)
			default:
				near(t, "queue", res.Timings.Queue, *tc.want, 1e-9)
			}
		})
	}
}

// TestQueueMetaEventIsState checks that an event reporting the queue time
// and nothing else is a state event.
func TestQueueMetaEventIsState(t *testing.T) {
	res := readStream(stringsReader("event: meta\ndata: {\"queue_ms\": 3}\n\n"), &Request{})
	if res.EventsByKind[State] != 1 {
		t.Errorf("kinds %v", res.EventsByKind.Map())
	}
}

// TestParseQueueSource checks the script forms.
func TestParseQueueSource(t *testing.T) {
	cases := []struct {
		spec any
		want QueueSource
		bad  bool
	}{
		{nil, QueueSource{}, false},
		{true, QueueSource{}, false},
		{false, QueueSource{Header: "-", Field: "-"}, false},
		{"none", QueueSource{Header: "-", Field: "-"}, false},
		{"meta.queue_ms", QueueSource{Header: "-", Field: "meta.queue_ms"}, false},
		{"field:q", QueueSource{Header: "-", Field: "q"}, false},
		{"header:X-Queue", QueueSource{Header: "X-Queue", Field: "-"}, false},
		{"server-timing:wait", QueueSource{Header: "Server-Timing", Metric: "wait", Field: "-"}, false},
		{map[string]any{"metric": "q"}, QueueSource{Header: "Server-Timing", Metric: "q", Field: "-"}, false},
		{map[string]any{"header": "X-Q", "field": "a.b"}, QueueSource{Header: "X-Q", Field: "a.b"}, false},
		{map[string]any{"colour": "x"}, QueueSource{}, true},
		{map[string]any{"field": 3.0}, QueueSource{}, true},
		{"header:", QueueSource{}, true},
		{"a..b", QueueSource{}, true},
		{3.0, QueueSource{}, true},
	}
	for _, tc := range cases {
		got, err := ParseQueueSource(tc.spec)
		if tc.bad {
			if !errors.Is(err, ErrInvalidRequest) {
				t.Errorf("%v: accepted as %+v", tc.spec, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%v: %+v %v, want %+v", tc.spec, got, err, tc.want)
		}
	}
}
