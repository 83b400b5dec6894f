package sse

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// reactorTransport sends plain-HTTP/1.1 requests on the reactor's
// connections of one Client's pool.
type reactorTransport struct {
	pool  *wirePool
	proxy func(*http.Request) (*url.URL, error) // the client's proxy rule; nil for none
}

// carries implements streamTransport: plain-HTTP requests without a
// proxy.
func (t reactorTransport) carries(hreq *http.Request) bool {
	if hreq.URL.Scheme != "http" {
		return false
	}
	if t.proxy != nil {
		if u, err := t.proxy(hreq); err != nil || u != nil {
			return false
		}
	}
	return true
}

// closeIdle implements streamTransport.
func (t reactorTransport) closeIdle() { t.pool.closeIdle() }

// roundTrip implements streamTransport: it performs the request on the
// reactor (runWire).
func (t reactorTransport) roundTrip(x *exchange, hreq *http.Request) *redirection {
	x.runWire(t.pool, hreq, wireAddr(hreq))
	return x.redirect
}

// wireAddr returns the host:port a plain-HTTP request connects to.
func wireAddr(hreq *http.Request) string {
	host, port := hreq.URL.Hostname(), hreq.URL.Port()
	if port == "" {
		port = "80"
	}
	return net.JoinHostPort(host, port)
}

// runWire performs the exchange on the reactor, on pool's connections. A
// reused connection that fails before any response byte is replaced once by
// a new one, as net/http does: when nothing of the request was written, or
// when the request may be sent twice (see replayable). A redirect response
// ends it with x.redirect set.
func (x *exchange) runWire(pool *wirePool, hreq *http.Request, addr string) {
	for fresh := false; ; fresh = true {
		msg, err := x.message(hreq)
		if err != nil {
			x.res.fail(CodeInvalidRequest, err.Error())
			return
		}
		c, err := pool.get(x.ctx, addr, fresh, x, hreq)
		if err != nil {
			putMessage(msg)
			x.failTransport(err)
			return
		}
		written, err := c.send(msg.Bytes(), x.remaining())
		putMessage(msg) // not kept for the stream's life: a retry writes it anew
		if err != nil {
			if c.reused && !fresh && x.ctx.Err() == nil && (written == 0 || replayable(hreq)) {
				continue
			}
			x.failTransport(err)
			return
		}
		x.follow(c, hreq)
		if x.retry && !fresh {
			continue
		}
		if x.redirect != nil {
			x.wc.Store(nil)
			x.now = time.Now
		}
		return
	}
}

// remaining is the time left before the request's timeout, at least 1 ms.
func (x *exchange) remaining() time.Duration {
	return max(x.req.Timeout-time.Since(x.sent), time.Millisecond)
}

// messages recycles the buffers requests are written into.
var messages = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// message writes the request in HTTP/1.1 wire format, body included.
func (x *exchange) message(hreq *http.Request) (*bytes.Buffer, error) {
	if hreq.GetBody != nil {
		body, err := hreq.GetBody()
		if err != nil {
			return nil, err
		}
		hreq.Body = body
	}
	b := messages.Get().(*bytes.Buffer)
	b.Reset()
	if hreq.ContentLength > 0 {
		b.Grow(int(hreq.ContentLength) + 4<<10) // one copy of a large body, not one per doubling
	}
	if err := hreq.Write(b); err != nil {
		putMessage(b)
		return nil, err
	}
	return b, nil
}

// putMessage recycles a request buffer, unless a large body grew it.
func putMessage(b *bytes.Buffer) {
	if b.Cap() <= 64<<10 {
		messages.Put(b)
	}
}

// follow sees the response through: it waits for the coroutine, or parses
// the handed-off response itself so that the callbacks run on this
// goroutine.
func (x *exchange) follow(c *wireConn, hreq *http.Request) {
	h := x.handoff
	if h == nil {
		x.await(c)
		return
	}
	x.receiveWire(c, hreq)
	if !h.bodyOut {
		c.releaseNow() // else closing the body releases the connection
	}
}

// await waits for the result, then briefly for the connection's release:
// servers usually end the body right after the terminal event, and waiting
// that long returns the connection to the pool before the caller's next
// request.
//
// It watches the exchange's own context (its timeout, and the parent's
// end): whatever ended it, the coroutine is interrupted, so no timeout is
// lost to a race with the connection's set-up.
func (x *exchange) await(c *wireConn) {
	select {
	case <-x.done:
	case <-x.ctx.Done():
		c.r.interrupt(c, x)
		<-x.done
	}
	select {
	case <-x.ended:
		return
	default:
	}
	t := time.NewTimer(drainWait)
	defer t.Stop()
	select {
	case <-x.ended:
	case <-t.C:
	}
}

// settle tells the caller its result is ready; on the coroutine.
func (x *exchange) settle() {
	if !x.settled {
		x.settled = true
		close(x.done)
	}
}

// receiveWire is the coroutine of an exchange on the reactor: it parses the
// response with net/http's parser and reads the stream as every exchange
// does.
func (x *exchange) receiveWire(c *wireConn, hreq *http.Request) {
	defer x.settle()
	defer func() {
		if r := recover(); r != nil {
			c.keep = false
			x.res.fail(CodeInternal, fmt.Sprintf("internal error: %v", r))
		}
	}()
	resp, err := readResponse(c, hreq)
	if err != nil {
		if c.reused && c.received() == 0 && x.ctx.Err() == nil && replayable(hreq) {
			x.retry = true
			return
		}
		x.failTransport(err)
		return
	}
	c.keep = !resp.Close
	if r := redirectOf(resp); r != nil && x.ctx.Err() == nil {
		x.redirect, c.keep = r, false
		return
	}
	resp.Body = &wireBody{ReadCloser: resp.Body, c: c, h: x.handoff}
	if x.handoff != nil {
		x.handoff.bodyOut = true
	}
	x.receive(resp)
}

// replayable reports whether a request that was written may be sent again
// when its kept-alive connection died before answering, by net/http's rule:
// methods without side effects, or a request that says it is idempotent. A
// chat request (POST) is not resent: the server may have started a costly
// generation.
func replayable(hreq *http.Request) bool {
	switch hreq.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	_, key := hreq.Header["Idempotency-Key"]
	_, xkey := hreq.Header["X-Idempotency-Key"]
	return key || xkey
}

// maxInterim is how many 1xx interim responses may precede the response,
// as in net/http.
const maxInterim = 5

// readResponse reads the response head, skipping 1xx interim responses.
func readResponse(c *wireConn, hreq *http.Request) (*http.Response, error) {
	c.headLimit, c.headLeft = true, c.x.req.MaxHeaderSize
	defer func() { c.headLimit = false }()
	for range maxInterim + 1 {
		resp, err := http.ReadResponse(c.br, hreq)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode < 100 || resp.StatusCode > 199 || resp.StatusCode == http.StatusSwitchingProtocols {
			return resp, nil
		}
	}
	return nil, fmt.Errorf("more than %d 1xx informational responses", maxInterim)
}
