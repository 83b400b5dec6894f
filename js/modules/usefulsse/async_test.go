package usefulsse

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
)

var registerOnce sync.Once

// TestAsyncTimeoutsNeverLost sends 2,000 requestAsync calls with a 150 ms
// timeout to a server that accepts and never answers, as the report of the
// lost timeouts did: every promise resolves with error_code timeout, and
// the iteration ends within seconds (it used to hang until maxDuration).
func TestAsyncTimeoutsNeverLost(t *testing.T) {
	registerOnce.Do(func() { modules.Register(Name, New()) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, c); c.Close() }()
		}
	}()
	vu := jstest.NewVU(t, fmt.Sprintf(`import usefulsse from 'k6/x/usefulsse';
export default async function () {
  const all = await Promise.all(Array.from({length: 2000}, () =>
    usefulsse.requestAsync('POST', 'http://%s/', '{}', {timeout: '150ms'})));
  const codes = {};
  for (const r of all) codes[r.error_code] = (codes[r.error_code] || 0) + 1;
  if (codes.timeout !== 2000) throw new Error('outcomes ' + JSON.stringify(codes));
}
`, ln.Addr()))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- vu.RunIteration(ctx, js.Iteration{Exec: "default"}) }()
	select {
	case err := <-done:
		if took := time.Since(start); err != nil || took > 10*time.Second {
			t.Errorf("iteration: %v after %v", err, took)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("requests still running 20 s after their 150 ms timeout")
	}
}
