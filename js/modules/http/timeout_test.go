package k6http_test

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// phaseServer is a raw TCP server whose handler decides, per connection,
// at which phase of an exchange it stalls; close ends every stall.
func phaseServer(t *testing.T, handle func(c net.Conn, stall <-chan struct{})) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stall := make(chan struct{})
	var wg sync.WaitGroup
	t.Cleanup(func() { close(stall); _ = ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				handle(c, stall)
			}()
		}
	}()
	return ln.Addr().String()
}

// TestTimeoutPhases checks that the timeout param ends a request at every
// phase — the TLS handshake, sending a body the server never reads, waiting
// for headers, reading a body that stops half way — with k6's code 1050,
// a failed request, and no exception.
func TestTimeoutPhases(t *testing.T) {
	silent := phaseServer(t, func(c net.Conn, stall <-chan struct{}) { <-stall }) // accepts, never reads or answers
	halfBody := phaseServer(t, func(c net.Conn, stall <-chan struct{}) {
		if _, err := http.ReadRequest(bufio.NewReader(c)); err != nil {
			return
		}
		_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhalf"))
		<-stall
	})
	r := mustRun(t, `export default function () {
  const big = 'x'.repeat(32 << 20);
  const phases = {
    tls: () => http.get('https://' + __ENV.SILENT + '/', {timeout: '300ms'}),
    sending: () => http.post('http://' + __ENV.SILENT + '/', big, {timeout: '300ms'}),
    headers: () => http.get('http://' + __ENV.SILENT + '/', {timeout: '300ms'}),
    body: () => http.get('http://' + __ENV.HALF + '/', {timeout: '300ms'}),
  };
  for (const [phase, send] of Object.entries(phases)) {
    const start = Date.now();
    const r = send();
    const took = Date.now() - start;
    eq([r.error_code, r.error], [1050, 'request timeout'], phase);
    if (took < 250 || took > 2300) throw new Error(phase + ' timed out after ' + took + ' ms, want about 300');
  }
}`, map[string]string{"SILENT": silent, "HALF": halfBody})
	var codes []string
	for _, s := range r.of("http_req_failed") {
		if s.Value != 1 {
			t.Errorf("a timed-out request counted as passed: %v", s.Tags)
		}
		codes = append(codes, s.Tags["error_code"])
	}
	if got := strings.Join(codes, ","); got != "1050,1050,1050,1050" {
		t.Errorf("error_code tags = %s, want four 1050", got)
	}
}
