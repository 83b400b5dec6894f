package usefulsse

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
)

// TestProbeUsesTheRunsNetworkOptions checks that the probe dials through
// the stack k6/http uses: hosts, localIPs, blockHostnames, blacklistIPs
// and userAgent apply to its requests, on the reactor and through
// net/http alike (the reactor reads these plain-HTTP streams).
func TestProbeUsesTheRunsNetworkOptions(t *testing.T) {
	registerOnce.Do(func() { modules.Register(Name, New()) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s|%s\n\nevent: done\ndata: x\n\n", r.UserAgent(), host)
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	src := `import usefulsse from 'k6/x/usefulsse';
function eq(got, want, what) {
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(what + ': got ' + JSON.stringify(got) + ', want ' + JSON.stringify(want));
}
export default function () {
  let r = usefulsse.get('http://stream.test/', {dialect: 'raw'});
  eq([r.error_code, r.text], ['', __ENV.WANT], 'mapped host, local IP, user agent');
  r = usefulsse.get('http://x.blocked.test/', {dialect: 'raw'});
  eq([r.status, r.error_code], [0, 'blocked_host'], 'blockHostnames');
  r = usefulsse.get('http://127.0.0.9:` + port + `/', {dialect: 'raw'});
  eq([r.status, r.error_code], [0, 'blocked_ip'], 'blacklistIPs');
}
`
	opts := map[string]any{
		"hosts":          map[string]any{"stream.test": "127.0.0.1:" + port},
		"blockHostnames": []any{"*.blocked.test"},
		"blacklistIPs":   []any{"127.0.0.9/32"},
		"localIPs":       "127.0.0.2",
	}
	for ua, want := range map[string]string{"k6-like/1.0": "k6-like/1.0|127.0.0.2", "": "|127.0.0.2"} {
		opts["userAgent"] = ua
		if err := runWithOptions(t, 1, src, opts, map[string]string{"WANT": want}); err != nil {
			t.Errorf("userAgent %q: %v", ua, err)
		}
	}
}

// runWithOptions runs n iterations of src in VU 1 of a run with the
// consolidated options opts; it stops at the first that fails.
func runWithOptions(t *testing.T, n int, src string, opts map[string]any, env map[string]string) error {
	t.Helper()
	b := jstest.NewBundle(t, src)
	run := jstest.NewRun(&bytes.Buffer{})
	run.Options, run.Env = opts, env
	vu, err := b.NewVU(context.Background(), 1, run)
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		if err := vu.RunIteration(context.Background(), js.Iteration{Exec: "default"}); err != nil {
			return err
		}
	}
	return nil
}

// TestProbeConnectionReuseOptions counts the connections of two
// iterations of two streams each.
func TestProbeConnectionReuseOptions(t *testing.T) {
	registerOnce.Do(func() { modules.Register(Name, New()) })
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: hi\n\nevent: done\ndata: x\n\n")
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	src := `import usefulsse from 'k6/x/usefulsse';
export default function () {
  for (let i = 0; i < 2; i++) {
    const r = usefulsse.get(__ENV.URL, {dialect: 'raw'});
    if (r.error_code !== '') throw new Error(r.error_code + ': ' + r.error);
  }
}
`
	for _, tt := range []struct {
		name string
		opts map[string]any
		want int64
	}{
		{"reuse", map[string]any{}, 1},
		{"noConnectionReuse", map[string]any{"noConnectionReuse": true}, 4},
		{"noVUConnectionReuse", map[string]any{"noVUConnectionReuse": true}, 2},
	} {
		conns.Store(0)
		if err := runWithOptions(t, 2, src, tt.opts, map[string]string{"URL": srv.URL}); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := conns.Load(); got != tt.want {
			t.Errorf("%s: %d connections, want %d", tt.name, got, tt.want)
		}
	}
}
