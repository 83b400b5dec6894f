package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startSSEServer builds and starts bench/sseserver with args; it returns
// its URL and stops it at the end of the test.
func startSSEServer(t *testing.T, args ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sseserver")
	if out, err := exec.Command("go", "build", "-o", bin, "../bench/sseserver").CombinedOutput(); err != nil {
		t.Fatalf("building bench/sseserver: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("sseserver: %v", err)
	}
	return strings.TrimSpace(line)
}

// TestTruthUnderBusyRunner runs bench/truth.js with gates on every
// transport: a dense stream (an event every 10 ms) at 5 streams/s on
// reused connections, with an onEvent callback, while 6 VUs spin
// JavaScript on this machine's cores. Every moment of the probe — the
// headers, first_text, useful and each event — must lie within a few
// milliseconds of the server's own send time (p95 < 10 ms, max < 50 ms),
// and no event may share a stamp with the next.
func TestTruthUnderBusyRunner(t *testing.T) {
	for _, mode := range []string{"plain", "h1", "h2"} {
		t.Run(mode, func(t *testing.T) {
			args := []string{"-interval", "10ms", "-events", "40"}
			if mode != "plain" {
				args = append(args, "-tls", mode)
			}
			url := startSSEServer(t, args...)
			summary := filepath.Join(t.TempDir(), "summary.json")
			r := invocation{args: []string{"run", "-q", "--no-summary", "--summary-export", summary,
				"-e", "SSE_URL=" + url, "-e", "DURATION=4s", "-e", "BUSY=6", "-e", "ONEVENT=1",
				script("truth/gate.js")}, timeout: time.Minute}.run(t)
			if r.code != 0 {
				t.Fatalf("exit %d: a gate failed\n%s", r.code, r.stderr)
			}
			m := export(t, summary)
			for _, name := range []string{"err_headers", "err_first_text", "err_useful", "err_event"} {
				t.Logf("%s: p95 %.3f ms, max %.3f ms, n %.0f", name, number(t, m, "metrics", name, "p(95)"),
					number(t, m, "metrics", name, "max"), number(t, m, "metrics", name, "count"))
			}
			if n := number(t, m, "metrics", "err_event", "count"); n < 500 {
				t.Errorf("only %.0f events compared", n)
			}
			if c, ok := lookup(m, "metrics", "usefulsse_coalesced_events", "count"); ok && c.(float64) > 0 {
				t.Errorf("%v events shared a stamp under the packet capture", c)
			}
		})
	}
}
