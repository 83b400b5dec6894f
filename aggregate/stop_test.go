package aggregate

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// countingListener counts the connections made to it and answers none.
type countingListener struct {
	net.Listener
	conns atomic.Int64
}

func listenCounting(t *testing.T, addr string) *countingListener {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	l := &countingListener{Listener: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			l.conns.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return l
}

// TestAggregatorNoSSRF: the address a post names is never where a request
// goes. A runner posting from 127.0.0.1 names 127.0.0.2:P (another host,
// any path the old header could not choose anyway); when the gate is
// crossed, the stop goes to 127.0.0.1:P — the post's own address with the
// port it announced — with the fixed path /v1/status, and 127.0.0.2:P sees
// no connection at all. A runner's answer that redirects the stop
// elsewhere is not followed either.
func TestAggregatorNoSSRF(t *testing.T) {
	t.Parallel()
	victim := listenCounting(t, "127.0.0.2:0")
	port := victim.Addr().(*net.TCPAddr).Port
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		t.Skipf("port %d is taken on 127.0.0.1: %v", port, err)
	}
	var stops atomic.Int64
	api := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch && r.URL.Path == statusPath {
			stops.Add(1)
		}
		// A runner's API that answers with a redirect to the other host.
		http.Redirect(w, r, "http://"+victim.Addr().String()+"/admin", http.StatusTemporaryRedirect)
	})}
	go func() { _ = api.Serve(ln) }()
	t.Cleanup(func() { api.Close() })

	var log syncWriter
	log.w = &bytes.Buffer{}
	a := New(Config{Interval: 10 * time.Millisecond, Token: testToken, Log: &log})
	url := serve(t, a)
	for i, named := range []string{victim.Addr().String(), "127.0.0.2:" + strconv.Itoa(port)} {
		p := poster{id: runnerN(i).id, api: named}
		if code := p.postTo(t, url, encoded(shareFile(i, 2, 10, 0, "count<10"))); code != http.StatusNoContent {
			t.Fatalf("post %d: %d", i, code)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _, _, _ = a.Run(ctx) }()
	eventually.True(t, "both runners stopped at the posts' address", func() bool { return stops.Load() == 2 })
	eventually.True(t, "the redirect reported", func() bool { return strings.Contains(log.String(), "307 Temporary Redirect") })
	if n := victim.conns.Load(); n != 0 {
		t.Errorf("the host a post named got %d connections", n)
	}
}
