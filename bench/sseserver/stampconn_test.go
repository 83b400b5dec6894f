//go:build linux

package main

import (
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// kernelHeadersRE finds kernel_headers_ms in a stream's last event.
var kernelHeadersRE = regexp.MustCompile(`"kernel_headers_ms": ([0-9.]+)`)

// TestKernelHeadersWithinRoundTrip runs the server on a stamping listener
// and checks, for three streams on one kept-alive connection, that
// kernel_headers_ms is reported (for most of them: the field is left out
// when the kernel gave no stamp, which a loaded machine sometimes shows)
// and always lies within the client's own time from sending the request
// to having the response headers: the kernel received the request after
// the client sent it and sent the headers before the client had them.
func TestKernelHeadersWithinRoundTrip(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: newServer(5, 2*time.Millisecond, 1), ConnContext: connContext}
	go func() { _ = srv.Serve(listenStamped(ln)) }()
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	const streams = 3
	reported := 0
	for i := range streams {
		before := time.Now()
		resp, err := client.Get("http://" + ln.Addr().String() + "/chat")
		if err != nil {
			t.Fatal(err)
		}
		roundTrip := float64(time.Since(before)) / float64(time.Millisecond)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		m := kernelHeadersRE.FindSubmatch(body)
		if m == nil {
			t.Logf("stream %d: no kernel_headers_ms in %s", i, body)
			continue
		}
		reported++
		kernel, _ := strconv.ParseFloat(string(m[1]), 64)
		if kernel <= 0 || kernel > roundTrip {
			t.Errorf("stream %d: kernel_headers_ms %.3f outside (0, %.3f], the client's request-to-headers time", i, kernel, roundTrip)
		}
	}
	if reported < streams-1 {
		t.Errorf("kernel_headers_ms in %d of %d streams; want at least %d", reported, streams, streams-1)
	}
}
