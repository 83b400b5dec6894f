package api

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/runner"
)

// idleRoutes serves the routes of a loaded, not started api.js on an
// httptest server and returns its URL.
func idleRoutes(t *testing.T) string {
	t.Helper()
	test, err := runner.Load("testdata/api.js", map[string]string{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(runner.NewControl(test, options.Options{})))
	t.Cleanup(srv.Close)
	return srv.URL
}

// jsonStream is an endless valid-looking JSON array "[0,0,0,…" of which
// the server may read as much as it wants; sent counts the bytes read.
type jsonStream struct {
	sent  atomic.Int64
	limit int64
}

func (s *jsonStream) Read(p []byte) (int, error) {
	n := s.sent.Load()
	if n >= s.limit {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), s.limit-n)]
	for i := range p {
		p[i] = "0,"[(n+int64(i))%2]
	}
	if n == 0 {
		p[0] = '['
	}
	s.sent.Add(int64(len(p)))
	return len(p), nil
}

// A PUT /v1/setup of 256 MiB without Content-Length (k6 reads it whole:
// 1 GiB took 4.83 GB) is refused with 413 once 10 MiB are read: the
// client gets to send little more, and the process allocates a few times
// the limit at most.
func TestSetupBodyLimit(t *testing.T) {
	base := idleRoutes(t)
	body := &jsonStream{limit: 256 << 20}
	req, err := http.NewRequest(http.MethodPut, base+"/v1/setup", body)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	runtime.ReadMemStats(&after)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(raw), "10 MiB") {
		t.Errorf("PUT /v1/setup of 256 MiB: %d %s, want 413 naming the 10 MiB limit", resp.StatusCode, raw)
	}
	wantShape(t, "the 413", decodeJSON(t, raw), errorShape)
	t.Logf("refused after the client sent %.1f MiB; the process allocated %.1f MiB meanwhile",
		float64(body.sent.Load())/(1<<20), float64(after.TotalAlloc-before.TotalAlloc)/(1<<20))
	if sent := body.sent.Load(); sent > 64<<20 {
		t.Errorf("the server read on: the client sent %d MiB", sent>>20)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 80<<20 {
		t.Errorf("the refused PUT allocated %d MiB, want under 80 (4 × the limit)", alloc>>20)
	}
	if v := get(t, base+"/v1/setup"); at(v, "data", "attributes", "data") != nil {
		t.Errorf("the refused PUT set setup data")
	}
}

// Bodies up to the limit pass; larger ones are refused with 413 before
// they are read when Content-Length announces them (the answer comes
// though the client sends no byte of the body), and after limit+1 bytes
// otherwise.
func TestBodyLimits(t *testing.T) {
	t.Parallel()
	base := idleRoutes(t)
	atLimit := `"` + strings.Repeat("a", MaxSetupDataSize-2) + `"`
	if code, v := call(t, http.MethodPut, base+"/v1/setup", atLimit); code != http.StatusOK {
		t.Errorf("PUT /v1/setup of exactly %d bytes: %d %v", len(atLimit), code, at(v, "errors"))
	}
	code, v := call(t, http.MethodPut, base+"/v1/setup", atLimit+" ")
	wantRefused(t, "PUT /v1/setup one byte over", code, v, http.StatusRequestEntityTooLarge)
	status := `{"data":{"attributes":{"paused":false}},"pad":"` + strings.Repeat("x", MaxStatusBodySize) + `"}`
	code, v = call(t, http.MethodPatch, base+"/v1/status", status)
	wantRefused(t, "PATCH /v1/status over 64 KiB", code, v, http.StatusRequestEntityTooLarge)
	for _, path := range []string{"/v1/setup", "/v1/status"} {
		method := map[string]string{"/v1/setup": http.MethodPut, "/v1/status": http.MethodPatch}[path]
		head := announce(t, base, method, path, 1<<30)
		if !strings.HasPrefix(head, "HTTP/1.1 413") {
			t.Errorf("%s %s announcing 1 GiB: %q, want 413 at once", method, path, head)
		}
	}
}

// announce sends method path with Content-Length n and no body byte, and
// returns the status line of the answer (empty when none came in 5 s).
func announce(t *testing.T, base, method, path string, n int64) string {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n", method, path, strings.TrimPrefix(base, "http://"), n)
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, _ := bufio.NewReader(conn).ReadString('\n')
	return strings.TrimSpace(line)
}

// decodeJSON decodes a JSON answer, failing the test when it is not JSON.
func decodeJSON(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("answer is not JSON: %v\n%.200s", err, raw)
	}
	return v
}
