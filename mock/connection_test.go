package mock

import (
	"bufio"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestIdleConnectionsAreClosed checks that the server closes a keep-alive
// connection that stays idle after a request (IdleTimeoutMS) and one that
// never sends its request headers (ReadHeaderTimeoutMS), so idle clients
// cannot hold the server's connections (and file descriptors) forever.
func TestIdleConnectionsAreClosed(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	cfg.IdleTimeoutMS, cfg.ReadHeaderTimeoutMS = 200, 200
	_, url := start(t, cfg)
	addr := strings.TrimPrefix(url, "http://")

	idle := dial(t, addr)
	idle.Write([]byte("GET /healthz HTTP/1.1\r\nHost: mock\r\n\r\n"))
	r := bufio.NewReader(idle)
	resp, err := http.ReadResponse(r, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	waitClosed(t, "idle keep-alive connection", idle, r)

	silent := dial(t, addr)
	waitClosed(t, "connection without a request", silent, bufio.NewReader(silent))
}

// dial opens a TCP connection to addr, closed at the end of the test.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitClosed fails unless the server closes c within 5 s.
func waitClosed(t *testing.T, what string, c net.Conn, r *bufio.Reader) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := r.ReadByte(); err == nil || isTimeout(err) {
		t.Errorf("%s: still open after 5 s (%v)", what, err)
	}
}

// isTimeout reports whether err is a deadline error.
func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// TestTenantTableIsPruned sends requests for 200 different tenants, then
// checks that the tenant table only holds tenants with a request in flight
// (none), so random tenant names cannot grow the server's memory.
func TestTenantTableIsPruned(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	cfg.Tenants = map[string]int{"vip": 1}
	s, url := start(t, cfg)
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := postT(t, url+"/chat", `{"bucket":"qa","tenant":"t`+strconv.Itoa(i)+`"}`)
			if x.err != nil || x.status != 200 {
				t.Errorf("tenant t%d: status %d, err %v", i, x.status, x.err)
			}
		}()
	}
	wg.Wait()
	if n := s.TenantCount(); n != 0 {
		t.Errorf("%d tenants in the table after every request ended, want 0", n)
	}
}
