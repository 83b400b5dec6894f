//go:build !race

package k6http_test

import (
	"bytes"
	"context"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// cannedServer is a loopback HTTP/1.1 server that answers every request
// of a connection with resp, reading into a fixed buffer: it allocates
// nothing per request, so that testing.AllocsPerRun counts the client's
// allocations only. It serves requests without a body.
func cannedServer(t *testing.T, resp []byte) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		conns []net.Conn
	)
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		for _, c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				serveCanned(c, resp)
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/"
}

// serveCanned answers each request head read from c with resp.
func serveCanned(c net.Conn, resp []byte) {
	defer c.Close()
	var buf [8 << 10]byte
	n := 0
	for {
		m, err := c.Read(buf[n:])
		if err != nil {
			return
		}
		n += m
		for {
			end := bytes.Index(buf[:n], []byte("\r\n\r\n"))
			if end < 0 {
				break
			}
			if _, err := c.Write(resp); err != nil {
				return
			}
			n = copy(buf[:], buf[end+4:n])
		}
		if n == len(buf) {
			return // a head larger than the buffer: not a test request
		}
	}
}

// TestGetAllocs checks how many allocations, and how many bytes, one
// iteration of `http.get(BASE)` of a 1 KiB body costs on the client side
// (the server allocates nothing): the argument checks, the exchange on a
// reused connection, the response object and the samples pushed into a
// real metrics engine. The bounds have a margin over what was measured
// when they were set, 66 allocations and 6.5 KB (112 and 11.8 KB before
// the URL cache, the reused tracer, tags and samples, the body read into
// one buffer and the connection's own deadline): a change that makes a
// request allocate much more fails here. Not built with the race
// detector, which allocates for itself.
func TestGetAllocs(t *testing.T) {
	const maxAllocs, maxBytes = 75, 8 << 10
	body := strings.Repeat("x", 1024)
	base := cannedServer(t, []byte("HTTP/1.1 200 OK\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body))
	vu, it := getVU(t, base)
	run := func() {
		if err := vu.RunIteration(context.Background(), it); err != nil {
			t.Fatal(err)
		}
	}
	for range 10 { // connect, fill the caches and the pools
		run()
	}
	if got := testing.AllocsPerRun(200, run); got > maxAllocs {
		t.Errorf("%.1f allocations per http.get, want at most %d", got, maxAllocs)
	} else {
		t.Logf("%.1f allocations per http.get", got)
	}
	if got := bytesPerRun(200, run); got > maxBytes {
		t.Errorf("%d bytes allocated per http.get, want at most %d", got, maxBytes)
	} else {
		t.Logf("%d bytes allocated per http.get", got)
	}
}

// bytesPerRun returns the bytes allocated by one call of f, on average
// over runs calls, as testing.AllocsPerRun counts allocations.
func bytesPerRun(runs int, f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}
