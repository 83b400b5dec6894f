package reactor

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// releaseWait is how long Do waits, after the exchange's outcome is known,
// for its connection to be released: servers usually end the body right
// after the terminal event, and waiting that long returns the connection
// to the pool before the caller's next request.
const releaseWait = 50 * time.Millisecond

// Do sends hreq for x on one of the pool's connections and sees its
// response through x.Respond; it returns when x's outcome is known. A
// reused connection that fails before any response byte is replaced once
// by a new one, as net/http does: when nothing of the request was written,
// or when the request may be sent twice (see replayable). The write gives
// up at deadline.
//
// The error is the failure that left x without a response: a
// *RequestError, a dial or write error, a failed response head, or
// ErrInternal. A failure while the stream was read is x's to record.
func (p *Pool) Do(x Exchange, hreq *http.Request, deadline time.Time) error {
	addr := Addr(hreq)
	for fresh := false; ; fresh = true {
		msg, err := message(hreq)
		if err != nil {
			return &RequestError{Err: err}
		}
		c, k, err := p.get(x.Context(), addr, fresh, x, hreq)
		if err != nil {
			putMessage(msg)
			return err
		}
		written, err := c.send(msg.Bytes(), max(time.Until(deadline), time.Millisecond))
		putMessage(msg) // not kept for the stream's life: a retry writes it anew
		if err != nil {
			if c.reused && !fresh && x.Context().Err() == nil && (written == 0 || replayable(hreq)) {
				continue
			}
			return err
		}
		c.follow(k, hreq)
		if k.retry && !fresh {
			continue
		}
		return k.err
	}
}

// Addr returns the host:port a plain-HTTP request connects to.
func Addr(hreq *http.Request) string {
	host, port := hreq.URL.Hostname(), hreq.URL.Port()
	if port == "" {
		port = "80"
	}
	return net.JoinHostPort(host, port)
}

// messages recycles the buffers requests are written into.
var messages = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// message writes the request in HTTP/1.1 wire format, body included.
func message(hreq *http.Request) (*bytes.Buffer, error) {
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
// the handed-off response itself so that the exchange's callbacks run on
// this goroutine.
func (c *Conn) follow(k *call, hreq *http.Request) {
	h := k.h
	if h == nil {
		c.await(k)
		return
	}
	c.receive(k, hreq)
	if !h.bodyOut {
		c.releaseNow() // else closing the body releases the connection
	}
}

// await waits for the outcome, then briefly for the connection's release
// (releaseWait).
//
// It watches the exchange's own context (its timeout, and the parent's
// end): whatever ended it, the coroutine is interrupted, so no timeout is
// lost to a race with the connection's set-up.
func (c *Conn) await(k *call) {
	select {
	case <-k.done:
	case <-k.x.Context().Done():
		c.r.interrupt(c, k.x)
		<-k.done
	}
	select {
	case <-k.ended:
		return
	default:
	}
	t := time.NewTimer(releaseWait)
	defer t.Stop()
	select {
	case <-k.ended:
	case <-t.C:
	}
}

// receive parses the response with net/http's parser and hands it to the
// exchange: in the coroutine, or on the caller's goroutine for a handoff.
func (c *Conn) receive(k *call, hreq *http.Request) {
	pushed := false
	defer func() {
		if !pushed {
			k.settle() // else when the pushed body ends
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			c.keep = false
			k.err = fmt.Errorf("%w: %v", ErrInternal, r)
		}
	}()
	resp, err := c.readResponse(k.x, hreq)
	if err != nil {
		if c.reused && c.received() == 0 && k.x.Context().Err() == nil && replayable(hreq) {
			k.retry = true
			return
		}
		k.err = err
		return
	}
	c.keep = !resp.Close
	resp.Body = &body{ReadCloser: resp.Body, c: c, h: k.h}
	if k.h != nil {
		k.h.bodyOut = true
	}
	if sink := k.x.Respond(resp); sink != nil {
		c.sink, c.frame, pushed = sink, framingOf(resp), true
	}
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

// readResponse reads the response head under x's header limit, skipping
// 1xx interim responses.
func (c *Conn) readResponse(x Exchange, hreq *http.Request) (*http.Response, error) {
	c.headLimit, c.headLeft = true, x.HeaderLimit()
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
