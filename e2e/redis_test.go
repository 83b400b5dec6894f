package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestRedis runs redis/redis.js against a redis-server of its own: every
// check of k6/experimental/redis passes, so the checks threshold holds and
// the run exits 0.
func TestRedis(t *testing.T) {
	t.Parallel()
	addr := startRedis(t)
	out := filepath.Join(t.TempDir(), "export.json")
	r := invocation{
		args: []string{"run", "-q", "--summary-export", out, script("redis/redis.js")},
		env:  []string{"REDIS_URL=redis://" + addr},
	}.run(t)
	r.wantCode(t, 0)
	exp := export(t, out)
	if p, f := number(t, exp, "metrics", "checks", "passes"), number(t, exp, "metrics", "checks", "fails"); p != 24 || f != 0 {
		t.Errorf("checks passes/fails = %v/%v, want 24/0 (6 checks × 4 iterations)\n%s\n%s", p, f, r.stdout, r.stderr)
	}
	if failed, ok := lookup(exp, "metrics", "checks", "thresholds", "rate==1"); !ok || failed != false {
		t.Errorf("checks threshold rate==1 failed = %v (present %v), want false", failed, ok)
	}
}

// startRedis starts a redis-server on a free loopback port, without
// persistence, and waits until it answers PING; it stops with the test. A
// missing redis-server fails the test: scripts/deps installs it.
func startRedis(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redis-server is not on PATH (%v): run scripts/deps (make deps) to install it", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if redisPing(addr) == nil {
			return addr
		}
		select {
		case err := <-exited:
			t.Fatalf("redis-server exited: %v", err)
		case <-ctx.Done():
			t.Fatalf("redis-server on %s did not answer PING: %v", addr, redisPing(addr))
		case <-tick.C:
		}
	}
}

// redisPing sends PING to addr and expects +PONG.
func redisPing(addr string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "+PONG\r\n" {
		return fmt.Errorf("PING answered %q", line)
	}
	return nil
}
