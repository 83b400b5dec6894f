package wsconn

import (
	"net/http"
	"sync/atomic"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
)

// headSlack is what the handshake may read off the wire beyond the
// response head's limit: the TLS handshake and record overhead, the
// buffered read past the head and the first KiB of a refused upgrade's
// body. 256 KiB.
const headSlack = 256 << 10

// headBudget bounds the bytes read off the wire during the opening
// handshake, so that an endless or huge response head fails once past
// its limit instead of growing memory. It is lifted once the handshake
// ended.
type headBudget struct {
	// max is the most bytes the handshake reads off the wire.
	max int64
	// limit is the error a read past max returns.
	limit error
	// off is set when the handshake ended; hit when max was reached.
	off, hit atomic.Bool
}

// newHeadBudget is the budget of a head of at most maxHead bytes.
func newHeadBudget(maxHead int) *headBudget {
	return &headBudget{
		max:   int64(maxHead) + headSlack,
		limit: &httpsafe.LimitError{What: "maxHeaderSize", Limit: int64(maxHead)},
	}
}

// take cuts b to what is left of the budget after read bytes, or fails
// when nothing is left.
func (h *headBudget) take(b []byte, read int64) ([]byte, error) {
	if h.off.Load() {
		return b, nil
	}
	left := h.max - read
	if left <= 0 {
		h.hit.Store(true)
		return nil, h.limit
	}
	if int64(len(b)) > left {
		b = b[:left]
	}
	return b, nil
}

// check returns the limit's error when the handshake hit the budget or
// its response head, as parsed, is above the limit; nil otherwise.
func (h *headBudget) check(resp *http.Response) error {
	if h.hit.Load() {
		return h.limit
	}
	if resp != nil && headBytes(resp) > h.limit.(*httpsafe.LimitError).Limit {
		return h.limit
	}
	return nil
}

// headBytes is the size of a response's status line and headers on the
// wire: "HTTP/1.1 101 Switching Protocols\r\n", "Key: value\r\n" per
// value, and the blank line.
func headBytes(resp *http.Response) int64 {
	return int64(len(resp.Proto)+1+len(resp.Status)+2) + httpsafe.HeaderBytes(resp.Header) + 2
}
