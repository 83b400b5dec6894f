package k6timers

import (
	"container/heap"
	"time"

	"github.com/grafana/sobek"
)

// timer is one pending setTimeout or setInterval.
type timer struct {
	id   int64
	fn   sobek.Callable
	args []sobek.Value
	// at is when the timer is due; seq orders timers due at the same time
	// by creation (or, for an interval, by rescheduling).
	at  time.Time
	seq uint64
	// every is the period of an interval; zero for a timeout.
	every    time.Duration
	interval bool
	// index is the timer's position in the queue, -1 when not queued.
	index int
}

// queue is a min-heap of timers by (at, seq): the head is due first.
type queue []*timer

var _ heap.Interface = (*queue)(nil)

func (q queue) Len() int { return len(q) }

func (q queue) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}

func (q queue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}

func (q *queue) Push(x any) {
	t := x.(*timer)
	t.index = len(*q)
	*q = append(*q, t)
}

func (q *queue) Pop() any {
	old := *q
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	t.index = -1
	return t
}

// head returns the timer due first, or nil.
func (q queue) head() *timer {
	if len(q) == 0 {
		return nil
	}
	return q[0]
}

// popDue removes and returns, in order, the timers due at or before now.
func (q *queue) popDue(now time.Time) []*timer {
	var due []*timer
	for h := q.head(); h != nil && !h.at.After(now); h = q.head() {
		due = append(due, heap.Pop(q).(*timer))
	}
	return due
}
