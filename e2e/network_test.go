package e2e

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestNetworkOptions runs http/network.js with k6's network flags: both
// clients go through the mapped host from the VU's local IP with the
// userAgent, blocked hosts fail with their codes, --rps 10 spaces the
// six k6/http requests over half a second at least, and --http-debug logs
// every request with its secrets masked.
func TestNetworkOptions(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		if r.URL.Path == "/stream" {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s|%s\n\nevent: done\ndata: x\n\n", r.UserAgent(), host)
			return
		}
		fmt.Fprintf(w, "%s|%s", r.UserAgent(), host)
	}))
	t.Cleanup(srv.Close)
	r := run(t, "run", "-q", "--hosts", "api.test="+srv.Listener.Addr().String(), "--local-ips", "127.0.0.2",
		"--block-hostnames", "*.blocked.test", "--user-agent", "e2e/1", "--rps", "10", "--http-debug",
		script("http/network.js"))
	r.wantCode(t, 0)
	if !strings.Contains(r.stdout, "checks") || strings.Contains(r.stdout, "✗") {
		t.Errorf("a check failed:\n%s", r.stdout)
	}
	if n := strings.Count(r.stderr, "Request:"); n != 6 {
		t.Errorf("%d Request: records, want 6 (one per k6/http request, none for the probe):\n%s", n, r.stderr)
	}
	for _, want := range []string{"source=http-debug", "Authorization: REDACTED", "api_key=REDACTED", "Response:"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the debug log lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "hidden-") {
		t.Errorf("the debug log shows a secret:\n%s", r.stderr)
	}
	if r.elapsed < 500*time.Millisecond {
		t.Errorf("6 requests at --rps 10 ran in %v, want at least 500ms", r.elapsed)
	}
}
