package netstack

import (
	"bufio"
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
)

// remoteServer accepts connections on 127.0.0.1 and sends each one the
// address it came from, then closes it.
func remoteServer(t *testing.T) (port string) {
	t.Helper()
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
			host, _, _ := net.SplitHostPort(c.RemoteAddr().String())
			_, _ = c.Write([]byte(host + "\n"))
			c.Close()
		}
	}()
	_, port, _ = net.SplitHostPort(ln.Addr().String())
	return port
}

// seenFrom dials addr with d and returns the address the server saw.
func seenFrom(t *testing.T, d *Dialer, addr string) (string, error) {
	t.Helper()
	c, err := d.DialContext(context.Background(), "tcp", addr)
	if err != nil {
		return "", err
	}
	defer c.Close()
	line, err := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSpace(line), err
}

// names resolves the test's host names to loopback addresses.
func names(answers map[string][]string) *Resolver {
	dns, _ := ParseDNS("", "first", "any")
	return NewResolver(dns, (&fakeLookup{answers: answers}).lookup)
}

func TestDialerLocalIPs(t *testing.T) {
	port := remoteServer(t)
	ips, err := ParseLocalIPs("127.0.0.2-127.0.0.3")
	if err != nil {
		t.Fatal(err)
	}
	for vu, want := range map[int64]string{1: "127.0.0.2", 2: "127.0.0.3", 3: "127.0.0.2"} {
		d := NewDialer(Config{LocalAddr: ips.ForVU(vu)}, nil)
		got, err := seenFrom(t, d, "127.0.0.1:"+port)
		if err != nil || got != want {
			t.Errorf("VU %d: server saw %q (%v), want %s", vu, got, err, want)
		}
	}
	got, err := seenFrom(t, NewDialer(Config{}, nil), "127.0.0.1:"+port)
	if err != nil || got != "127.0.0.1" {
		t.Errorf("no local address: server saw %q (%v)", got, err)
	}
}

func TestDialerHostsAndResolver(t *testing.T) {
	port := remoteServer(t)
	r := names(map[string][]string{"svc.test": {"127.0.0.1"}})
	d := NewDialer(Config{Hosts: map[string]string{
		"api.test": "svc.test:" + port, "*.wild.test": "127.0.0.1", "other.test:81": "127.0.0.1:" + port,
	}}, r)
	for _, addr := range []string{"api.test:80", "a.wild.test:" + port, "other.test:81", "svc.test:" + port} {
		if got, err := seenFrom(t, d, addr); err != nil || got != "127.0.0.1" {
			t.Errorf("%s: %q, %v", addr, got, err)
		}
	}
	_, err := d.DialContext(context.Background(), "tcp", "missing.test:80")
	var dnsErr *net.DNSError
	if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
		t.Errorf("unknown name: %v, want a not-found DNS error", err)
	}
}

func TestDialerBlockAndBlacklist(t *testing.T) {
	port := remoteServer(t)
	r := names(map[string][]string{"two.test": {"10.1.2.3", "127.0.0.1"}, "bad.test": {"10.1.2.3"}})
	bl, err := ParseBlacklist([]string{"10.0.0.0/8", "192.168.1.1"})
	if err != nil {
		t.Fatal(err)
	}
	d := NewDialer(Config{BlockHostnames: []string{"*.blocked.test", "exact.test"}, BlacklistIPs: bl}, r)
	for _, addr := range []string{"x.blocked.test:80", "EXACT.test:80"} {
		if _, err := d.DialContext(context.Background(), "tcp", addr); !errors.Is(err, ErrBlockedHost) {
			t.Errorf("%s: %v, want ErrBlockedHost", addr, err)
		}
	}
	for _, addr := range []string{"bad.test:80", "10.9.9.9:80", "192.168.1.1:80"} {
		if _, err := d.DialContext(context.Background(), "tcp", addr); !errors.Is(err, ErrBlacklistedIP) {
			t.Errorf("%s: %v, want ErrBlacklistedIP", addr, err)
		}
	}
	if got, err := seenFrom(t, d, "two.test:"+port); err != nil || got != "127.0.0.1" {
		t.Errorf("a name with one allowed address: %q, %v", got, err)
	}
	if _, err := ParseBlacklist([]string{"10.0.0.0/33"}); err == nil {
		t.Error("an invalid CIDR parsed")
	}
}

func TestLocalIPs(t *testing.T) {
	ips, err := ParseLocalIPs("10.0.0.1, 10.0.1.0/30,192.168.0.254-192.168.1.1,fd00::1")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"10.0.0.1", "10.0.1.0", "10.0.1.1", "10.0.1.2", "10.0.1.3",
		"192.168.0.254", "192.168.0.255", "192.168.1.0", "192.168.1.1", "fd00::1", "10.0.0.1"}
	for i, w := range want {
		if got := ips.ForVU(int64(i + 1)); got != netip.MustParseAddr(w) {
			t.Errorf("VU %d: %s, want %s", i+1, got, w)
		}
	}
	if ips.Len() != 10 {
		t.Errorf("Len = %d, want 10", ips.Len())
	}
	for _, bad := range []string{"10.0.0.300", "10.0.0.5-10.0.0.1", "10.0.0.1-fd00::1", "10.0.0.0/40", "a,b"} {
		if _, err := ParseLocalIPs(bad); err == nil || !strings.HasPrefix(err.Error(), "localIPs: ") {
			t.Errorf("%q: err = %v, want a localIPs error", bad, err)
		}
	}
	if empty, err := ParseLocalIPs(""); err != nil || empty.ForVU(1).IsValid() {
		t.Errorf("empty: %v, %v", empty.ForVU(1), err)
	}
}
