package e2e

import (
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMockOpenAICompatible runs a plain k6/http script written for an
// OpenAI-compatible server against run --mock: it finds the server through
// OPENAI_API_BASE and the other names such scripts read, lists the models,
// and res.json()s a non-streaming chat completion and a legacy completion.
// Every check must pass.
func TestMockOpenAICompatible(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "export.json")
	r := invocation{args: []string{"run", "-q", "--mock", "--summary-export", out, script("mockopenai/client.js")}}.run(t)
	r.wantCode(t, 0)
	checksAllPassed(t, out, 17, r)
}

// TestMockAddr runs a script whose server address is fixed with
// --mock-addr on that address, and checks that -e wins over the names run
// --mock sets; an address already in use is a configuration error.
func TestMockAddr(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	busy := invocation{args: []string{"run", "-q", "--mock", "--mock-addr", addr, script("mockopenai/fixed_addr.js")}}.run(t)
	ln.Close()
	busy.wantCode(t, 104)
	if line := busy.errorLine(t); !strings.Contains(line, "--mock-addr") || !strings.Contains(line, addr) {
		t.Errorf("address in use: %s", line)
	}

	out := filepath.Join(t.TempDir(), "export.json")
	r := invocation{args: []string{"run", "-q", "--mock", "--mock-addr", addr, "--summary-export", out,
		"-e", "TARGET=http://" + addr, "-e", "HOST=example.invalid:1", script("mockopenai/fixed_addr.js")}}.run(t)
	r.wantCode(t, 0)
	checksAllPassed(t, out, 3, r)
}

// checksAllPassed fails the test unless the summary export at path counts
// want passed checks and none failed, naming the failed ones.
func checksAllPassed(t *testing.T, path string, want int, r result) {
	t.Helper()
	exp := export(t, path)
	passes, fails := number(t, exp, "metrics", "checks", "passes"), number(t, exp, "metrics", "checks", "fails")
	if passes == float64(want) && fails == 0 {
		return
	}
	var failed []string
	if checks, ok := lookup(exp, "root_group", "checks"); ok {
		list, _ := checks.([]any)
		for _, c := range list {
			if m, _ := c.(map[string]any); m["fails"] != 0.0 {
				failed = append(failed, strconv.Quote(m["name"].(string)))
			}
		}
	}
	t.Errorf("checks: %v passed, %v failed (%s), want %d passed\nstderr:\n%s", passes, fails, strings.Join(failed, ", "), want, r.stderr)
}
