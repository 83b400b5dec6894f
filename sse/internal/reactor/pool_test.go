package reactor

import (
	"testing"
	"time"
)

// TestSetupTimes checks a new connection's set-up from the dial's times:
// the TCP connect is the kernel's round trip when it gives one, else the
// program's measure, else the whole dial; the set-up the request's times
// count back over is the dial less the program's lateness in noticing the
// handshake, never more than the dial nor less than the connect.
func TestSetupTimes(t *testing.T) {
	const ms = time.Millisecond
	for _, tt := range []struct {
		name              string
		dial, took, rtt   time.Duration
		rttOK             bool
		connect, setupDur time.Duration
	}{
		{"kernel round trip, busy runner", 30 * ms, 25 * ms, 5 * ms, true, 5 * ms, 10 * ms},
		{"kernel round trip, prompt runner", 12 * ms, 5 * ms, 5 * ms, true, 5 * ms, 12 * ms},
		{"no kernel figure", 12 * ms, 5 * ms, 0, false, 5 * ms, 12 * ms},
		{"no connect reported", 12 * ms, 0, 4 * ms, true, 4 * ms, 12 * ms},
		{"nothing measured", 12 * ms, 0, 0, false, 12 * ms, 12 * ms},
		{"kernel above the program", 12 * ms, 3 * ms, 4 * ms, true, 4 * ms, 12 * ms},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := newSetupTimes(tt.dial, tt.took, tt.rtt, tt.rttOK)
			if got.connect != tt.connect || got.setup != tt.setupDur {
				t.Errorf("newSetupTimes(dial %v, took %v, rtt %v/%v) = connect %v setup %v, want %v and %v",
					tt.dial, tt.took, tt.rtt, tt.rttOK, got.connect, got.setup, tt.connect, tt.setupDur)
			}
			if got.setup > tt.dial || got.setup < got.connect {
				t.Errorf("setup %v outside [connect %v, dial %v]", got.setup, got.connect, tt.dial)
			}
		})
	}
}
