package k6http

import (
	"testing"
	"time"
)

func TestPhaseTimings(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	cases := []struct {
		name string
		p    phases
		want timings
	}{
		{"new TLS connection", phases{
			getConn: at(0), connectStart: at(5), connectDone: at(8), tlsStart: at(8), tlsDone: at(20),
			gotConn: at(20), wrote: at(21), firstByte: at(31), done: at(34),
		}, timings{Blocked: 5, Connecting: 3, TLSHandshaking: 12, Sending: 1, Waiting: 10, Receiving: 3, Duration: 14}},
		{"reused connection", phases{getConn: at(0), gotConn: at(1), wrote: at(2), firstByte: at(7), done: at(9)},
			timings{Blocked: 1, Sending: 1, Waiting: 5, Receiving: 2, Duration: 8}},
		{"refused", phases{getConn: at(0), connectStart: at(2), connectDone: at(3), done: at(3)},
			timings{Blocked: 2, Connecting: 1}},
		{"no response", phases{getConn: at(0), gotConn: at(0), wrote: at(1), done: at(50)},
			timings{Sending: 1, Duration: 1}},
	}
	for _, c := range cases {
		if got := c.p.timings(); got != c.want {
			t.Errorf("%s: timings = %+v, want %+v", c.name, got, c.want)
		}
	}
}
