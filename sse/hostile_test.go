package sse

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/sse/internal/reactor"
)

// paths are the three ways the client reads a plain-HTTP response: the
// reactor's coroutine, the reactor handing the bytes to a caller that runs a
// callback, and net/http.
var paths = []struct {
	name     string
	netHTTP  bool
	callback bool
}{
	{"reactor", false, false},
	{"reactor+callback", false, true},
	{"net/http", true, false},
}

// onPath returns a client and a request for path p.
func onPath(p int, req Request) (*Client, *Request) {
	return NewClient(ClientOptions{NetHTTPOnly: paths[p].netHTTP}), pathRequest(p, req)
}

// pathRequest returns req as sent on path p: with a callback when the path
// hands the bytes to the caller.
func pathRequest(p int, req Request) *Request {
	if paths[p].callback {
		req.OnEvent = func(*Event) error { return nil }
	}
	return &req
}

// hostile answers every request with fn, after reading the request.
func hostile(t *testing.T, fn func(c net.Conn)) string {
	url, _ := rawServerConns(t, func(_ int, c net.Conn, r *bufio.Reader) {
		if req, err := http.ReadRequest(r); err == nil {
			_, _ = io.Copy(io.Discard, req.Body)
			fn(c)
		}
	})
	return url
}

// endlessHeaders writes a status line and header lines until the client
// goes away.
func endlessHeaders(c net.Conn) {
	line := []byte("X-Junk: " + strings.Repeat("j", 1000) + "\r\n")
	if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"); err != nil {
		return
	}
	for {
		if _, err := c.Write(bytes.Repeat(line, 64)); err != nil {
			return
		}
	}
}

// endlessBody writes an event stream that never ends, until the client
// goes away (or max bytes, to bound a broken client).
func endlessBody(max int) func(c net.Conn) {
	return func(c net.Conn) {
		chunk := []byte(strings.Repeat("data: "+strings.Repeat("e", 1000)+"\n\n", 64))
		if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"); err != nil {
			return
		}
		for sent := 0; sent < max; sent += len(chunk) {
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	}
}

// gzipBomb writes a gzip body of copies gzip members, each decoding to 1 MiB
// of events: about 1 KiB on the wire per MiB decoded.
func gzipBomb(copies int) func(c net.Conn) {
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	_, _ = io.WriteString(zw, strings.Repeat("data: "+strings.Repeat("z", 1016)+"\n\n", 1024))
	_ = zw.Close()
	return func(c net.Conn) {
		if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\n\r\n"); err != nil {
			return
		}
		for range copies {
			if _, err := c.Write(member.Bytes()); err != nil {
				return
			}
		}
	}
}

// trickle writes a response head one byte at a time, every gap, forever.
func trickle(gap time.Duration) func(c net.Conn) {
	return func(c net.Conn) {
		head := "HTTP/1.1 200 OK\r\n" + strings.Repeat("X-Slow: yes\r\n", 1000)
		for i := 0; ; i++ {
			if _, err := c.Write([]byte{head[i%len(head)]}); err != nil {
				return
			}
			time.Sleep(gap) // the trickle itself: the hostile server's pace
		}
	}
}

// silent accepts and reads the request, then never answers until the
// client goes away.
func silent(c net.Conn) { _, _ = io.Copy(io.Discard, c) }

// TestHostileServers sends requests to servers that attack the client and
// checks, on every path, that each ends in its error code within its
// bound, however much the server would send.
func TestHostileServers(t *testing.T) {
	cases := []struct {
		name  string
		serve func(c net.Conn)
		req   Request
		code  string
		bound time.Duration
	}{
		{"endless headers", endlessHeaders, Request{MaxHeaderSize: 64 << 10}, CodeTooLarge, 5 * time.Second},
		{"endless body", endlessBody(1 << 30), Request{MaxResponseSize: 1 << 20}, CodeTooLarge, 5 * time.Second},
		{"gzip bomb", gzipBomb(200), Request{}, CodeTooLarge, 5 * time.Second},
		{"slow trickle", trickle(10 * time.Millisecond), Request{Timeout: 300 * time.Millisecond}, CodeTimeout, 2300 * time.Millisecond},
		{"never answers", silent, Request{Timeout: 200 * time.Millisecond}, CodeTimeout, 2200 * time.Millisecond},
		{"bad content length", func(c net.Conn) {
			_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: x\r\n\r\n")
		}, Request{}, CodeProtocol, 5 * time.Second},
		{"bad status line", func(c net.Conn) { _, _ = io.WriteString(c, "HTTP/1.1 abc\r\n\r\n") }, Request{}, CodeProtocol, 5 * time.Second},
	}
	for _, tc := range cases {
		for p := range paths {
			t.Run(tc.name+"/"+paths[p].name, func(t *testing.T) {
				t.Parallel()
				req := tc.req
				req.URL, req.Dialect = hostile(t, tc.serve)+"/", DialectRaw
				c, r := onPath(p, req)
				start := time.Now()
				res := c.Do(context.Background(), r)
				took := time.Since(start)
				if res.ErrorCode != tc.code || took > tc.bound {
					t.Errorf("%s %q after %v; want %s within %v", res.ErrorCode, res.Error, took, tc.code, tc.bound)
				}
			})
		}
	}
}

// TestTooLargeKeepsTimings checks that a response cut at maxResponseSize
// keeps what was measured before: headers, first event, the events read.
func TestTooLargeKeepsTimings(t *testing.T) {
	for p := range paths {
		t.Run(paths[p].name, func(t *testing.T) {
			c, r := onPath(p, Request{URL: hostile(t, endlessBody(1<<30)) + "/", Dialect: DialectRaw, MaxResponseSize: 256 << 10})
			res := c.Do(context.Background(), r)
			if res.ErrorCode != CodeTooLarge || !strings.Contains(res.Error, "256 KiB (maxResponseSize)") {
				t.Fatalf("%s %q", res.ErrorCode, res.Error)
			}
			if res.Timings.Headers == nil || res.Timings.FirstEvent == nil || res.Events < 200 || len(res.Text) > 256<<10 {
				t.Errorf("partial result lost: headers %v first event %v, %d events, %d bytes of text",
					res.Timings.Headers, res.Timings.FirstEvent, res.Events, len(res.Text))
			}
		})
	}
}

// TestHostileMemoryBounded measures the heap allocated while reading a
// 200 MB hostile response (a body, and a gzip bomb of the same decoded
// size) under a 4 MiB limit: it stays within 10 times the limit, however
// much the server sends. Most of it is garbage: the text grows by steps of
// 1.25, which allocates about 5 times the final text in total.
func TestHostileMemoryBounded(t *testing.T) {
	const limit = 4 << 20
	for _, server := range []struct {
		name  string
		serve func(c net.Conn)
	}{{"body", endlessBody(200 << 20)}, {"gzip bomb", gzipBomb(200)}} {
		for p := range paths {
			t.Run(server.name+"/"+paths[p].name, func(t *testing.T) {
				c, r := onPath(p, Request{URL: hostile(t, server.serve) + "/", Dialect: DialectRaw, MaxResponseSize: limit})
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				res := c.Do(context.Background(), r)
				runtime.ReadMemStats(&after)
				if res.ErrorCode != CodeTooLarge {
					t.Fatalf("%s %q", res.ErrorCode, res.Error)
				}
				if d := after.TotalAlloc - before.TotalAlloc; d > 10*limit {
					t.Errorf("allocated %d MiB reading a response limited to %d MiB", d>>20, limit>>20)
				}
			})
		}
	}
}

// TestTimeoutNeverLost starts 2,000 requests at once, as requestAsync does,
// against a server that accepts and never answers: every one ends with
// timeout, soon after its timeout. The exchange's timer could fire before
// the reactor connection was attached and its interrupt be lost, leaving
// the request waiting forever.
func TestTimeoutNeverLost(t *testing.T) {
	const n, timeout = 2000, 150 * time.Millisecond
	for p := range paths {
		t.Run(paths[p].name, func(t *testing.T) {
			url := hostile(t, silent) + "/"
			c := NewClient(ClientOptions{NetHTTPOnly: paths[p].netHTTP})
			var wg sync.WaitGroup
			codes := make(chan string, n)
			start := time.Now()
			for range n {
				wg.Go(func() {
					r := pathRequest(p, Request{URL: url, Method: http.MethodPost, Body: []byte("{}"), Timeout: timeout})
					codes <- c.Do(context.Background(), r).ErrorCode
				})
			}
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("%d of %d requests still running 10 s after a %v timeout", n-len(codes), n, timeout)
			}
			close(codes)
			for code := range codes {
				if code != CodeTimeout {
					t.Errorf("a request ended with %q, want timeout", code)
				}
			}
			if took := time.Since(start); took > 8*time.Second {
				t.Errorf("%d requests with a %v timeout took %v", n, timeout, took)
			}
		})
	}
}

// TestResetUnderSlowCallback resets a stream whose onEvent callback is slow:
// the reactor reads the end of the connection once, not again and again
// while the callback runs, and the request ends in one outcome.
func TestResetUnderSlowCallback(t *testing.T) {
	first, reset := make(chan struct{}), make(chan struct{})
	url := hostile(t, func(c net.Conn) {
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: a\n\ndata: b\n\n")
		select { // the client is in its callback: the events were read
		case <-first:
		case <-t.Context().Done():
		}
		_ = c.(*net.TCPConn).SetLinger(0) // close with RST
		_ = c.Close()
		close(reset)
	})
	before := reactor.QueuedReads()
	calls := 0
	res := NewClient(ClientOptions{}).Do(context.Background(), &Request{URL: url + "/", Dialect: DialectRaw, OnEvent: func(*Event) error {
		calls++
		if calls == 1 {
			close(first)
			<-reset
			// The slow callback under test: a reactor that read the
			// reset again and again would queue thousands of reads
			// in this window.
			time.Sleep(200 * time.Millisecond)
		}
		return nil
	}})
	if reads := reactor.QueuedReads() - before; reads > 10 {
		t.Errorf("%d reads queued for a 2-event stream and its reset", reads)
	}
	if res.ErrorCode != CodeReset || calls != 2 {
		t.Errorf("%s %q after %d callbacks; want reset after 2", res.ErrorCode, res.Error, calls)
	}
}

// TestTimeoutDuringTLS connects to a server that accepts and never answers
// the TLS handshake: the request ends with timeout on time, not after the
// transport's 10 s handshake timeout.
func TestTimeoutDuringTLS(t *testing.T) {
	url := strings.Replace(hostileAccept(t), "http://", "https://", 1)
	start := time.Now()
	res := NewClient(ClientOptions{InsecureSkipTLSVerify: true}).Do(context.Background(), &Request{URL: url + "/", Timeout: 200 * time.Millisecond})
	if took := time.Since(start); res.ErrorCode != CodeTimeout || took > 2200*time.Millisecond {
		t.Errorf("%s %q after %v; want timeout within 2.2 s", res.ErrorCode, res.Error, took)
	}
}

// hostileAccept returns the URL of a server that accepts connections and
// reads them without ever writing.
func hostileAccept(t *testing.T) string {
	url, _ := rawServerConns(t, func(_ int, c net.Conn, _ *bufio.Reader) { silent(c) })
	return url
}

// TestTimeoutWhileSending posts a body the server never reads: the write
// blocks once the socket buffers are full, and the request still ends with
// timeout on time.
func TestTimeoutWhileSending(t *testing.T) {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	url, _ := rawServerConns(t, func(_ int, c net.Conn, _ *bufio.Reader) {
		<-done // reads nothing until the test ended
	})
	body := bytes.Repeat([]byte("x"), 64<<20)
	// The race detector slows the copies of the 64 MiB body several
	// times: 2.6 s was seen under it in make test's race pass.
	bound := 2300 * time.Millisecond
	if raceEnabled {
		bound = 6 * time.Second
	}
	for p := range paths {
		t.Run(paths[p].name, func(t *testing.T) {
			c, r := onPath(p, Request{URL: url + "/", Body: body, Timeout: 300 * time.Millisecond})
			start := time.Now()
			res := c.Do(context.Background(), r)
			if took := time.Since(start); res.ErrorCode != CodeTimeout || took > bound {
				t.Errorf("%s %q after %v; want timeout within %v", res.ErrorCode, res.Error, took, bound)
			}
		})
	}
}
