package k6http

import (
	"time"
)

// The moments of an exchange on a stamped connection (Linux) are the
// kernel's, so that a runner whose CPUs are busy with JavaScript does not
// count its own backlog as the server's time:
//
//   - the request is written when the kernel sent the write holding its
//     last byte (a software transmit stamp, SO_TIMESTAMPING): sending runs
//     from getting the connection to then, so it includes the runner's
//     delay in getting the request onto the wire, which does delay it;
//   - the first response byte arrived when the kernel received the read
//     that delivered it (SO_TIMESTAMPNS), however late the runner read it;
//   - the body's last byte arrived when the kernel received the read that
//     delivered it;
//   - connecting is the kernel's round trip of the TCP handshake.
//
// So waiting = first byte's receive stamp - the request's send stamp and
// receiving = last byte's receive stamp - first byte's receive stamp.
// Where the kernel gives no stamp (another system, a write the socket
// could not take a stamp for, an old kernel), the moment is the runner's
// time.Now, as before.

// clockBase anchors the stamps a wireConn keeps as integers to Go's
// monotonic clock.
var clockBase = time.Now()

// readAt returns the kernel's receive time of the latest read that
// delivered bytes on the connection; ok is false before any, or without
// stamps.
func (c *wireConn) readAt() (at time.Time, ok bool) {
	d := c.lastRead.Load()
	if c.st == nil || d == 0 {
		return time.Time{}, false
	}
	return clockBase.Add(time.Duration(d)), true
}

// sentAt returns the kernel's send time of the write that held the last
// byte written so far on the connection; ok is false when that write was
// not stamped, or without stamps.
func (c *wireConn) sentAt() (at time.Time, ok bool) {
	n := c.sent.Load()
	if c.st == nil || n == 0 {
		return time.Time{}, false
	}
	return c.st.SentAt(uint64(n - 1))
}

// stamped returns the kernel's time at when ok and it lies between from
// and now (a stamp of this exchange, not of an earlier one, nor a clock's
// quirk); else now, the runner's time.
func stamped(at time.Time, ok bool, from, now time.Time) time.Time {
	if !ok || at.Before(from) || at.After(now) {
		return now
	}
	return at
}
