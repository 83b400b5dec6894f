package netstack

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"slices"
	"testing"
	"time"
)

// fakeLookup answers from a table and counts its calls.
type fakeLookup struct {
	answers map[string][]string
	calls   int
}

func (f *fakeLookup) lookup(_ context.Context, host string) ([]netip.Addr, error) {
	f.calls++
	ss, ok := f.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

// mixed is an answer of two IPv4 and two IPv6 addresses, interleaved.
var mixed = []string{"::ffff:10.0.0.1", "2001:db8::1", "10.0.0.2", "2001:db8::2"}

func strs(addrs []netip.Addr) []string {
	var out []string
	for _, a := range addrs {
		out = append(out, a.String())
	}
	return out
}

func TestResolverPolicy(t *testing.T) {
	tests := []struct {
		policy string
		answer []string
		want   []string
	}{
		{"preferIPv4", mixed, []string{"10.0.0.1", "10.0.0.2"}},
		{"preferIPv4", []string{"2001:db8::1"}, []string{"2001:db8::1"}},
		{"preferIPv6", mixed, []string{"2001:db8::1", "2001:db8::2"}},
		{"preferIPv6", []string{"10.0.0.1"}, []string{"10.0.0.1"}},
		{"onlyIPv4", mixed, []string{"10.0.0.1", "10.0.0.2"}},
		{"onlyIPv6", mixed, []string{"2001:db8::1", "2001:db8::2"}},
		{"any", mixed, []string{"10.0.0.1", "2001:db8::1", "10.0.0.2", "2001:db8::2"}},
	}
	for _, tt := range tests {
		t.Run(tt.policy, func(t *testing.T) {
			dns, err := ParseDNS("", "first", tt.policy)
			if err != nil {
				t.Fatal(err)
			}
			f := &fakeLookup{answers: map[string][]string{"h.test": tt.answer}}
			got, err := NewResolver(dns, f.lookup).Resolve(context.Background(), "h.test")
			if err != nil || !slices.Equal(strs(got), tt.want) {
				t.Fatalf("Resolve = %v, %v; want %v", strs(got), err, tt.want)
			}
		})
	}
}

func TestResolverPolicyLeavesNothing(t *testing.T) {
	for _, tt := range []struct{ policy, answer string }{{"onlyIPv4", "2001:db8::1"}, {"onlyIPv6", "10.0.0.1"}} {
		dns, _ := ParseDNS("", "", tt.policy)
		f := &fakeLookup{answers: map[string][]string{"h.test": {tt.answer}}}
		_, err := NewResolver(dns, f.lookup).Resolve(context.Background(), "h.test")
		var dnsErr *net.DNSError
		if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound || dnsErr.Name != "h.test" {
			t.Errorf("%s of %s: err = %v, want a not-found DNS error naming the host", tt.policy, tt.answer, err)
		}
	}
}

func TestResolverSelect(t *testing.T) {
	answer := []string{"10.0.0.1", "10.0.0.2", "10.0.0.3"}
	first := func(sel string, n int) []string {
		dns, _ := ParseDNS("inf", sel, "")
		f := &fakeLookup{answers: map[string][]string{"h.test": answer}}
		r := NewResolver(dns, f.lookup)
		var out []string
		for range n {
			got, err := r.Resolve(context.Background(), "h.test")
			if err != nil || len(got) != 3 {
				t.Fatalf("%s: Resolve = %v, %v", sel, got, err)
			}
			out = append(out, got[0].String())
		}
		return out
	}
	if got := first("first", 3); !slices.Equal(got, []string{"10.0.0.1", "10.0.0.1", "10.0.0.1"}) {
		t.Errorf("first: %v", got)
	}
	if got := first("roundRobin", 4); !slices.Equal(got, []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.1"}) {
		t.Errorf("roundRobin: %v", got)
	}
	seen := map[string]bool{}
	for _, a := range first("random", 200) {
		seen[a] = true
	}
	if len(seen) != 3 {
		t.Errorf("random: 200 lookups started at %v, want all three addresses", seen)
	}
}

func TestResolverSelectKeepsTheOthersAsFallbacks(t *testing.T) {
	dns, _ := ParseDNS("", "roundRobin", "any")
	f := &fakeLookup{answers: map[string][]string{"h.test": {"10.0.0.1", "10.0.0.2", "10.0.0.3"}}}
	r := NewResolver(dns, f.lookup)
	_, _ = r.Resolve(context.Background(), "h.test")
	got, _ := r.Resolve(context.Background(), "h.test")
	if want := []string{"10.0.0.2", "10.0.0.3", "10.0.0.1"}; !slices.Equal(strs(got), want) {
		t.Errorf("second lookup = %v, want %v", strs(got), want)
	}
}

func TestResolverTTL(t *testing.T) {
	tests := []struct {
		ttl string
		// lookups after calls at 0, 59 s, 61 s, 1 h.
		want []int
	}{
		{"1m", []int{1, 1, 2, 3}},
		{"60000", []int{1, 1, 2, 3}},
		{"inf", []int{1, 1, 1, 1}},
		{"0", []int{1, 2, 3, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.ttl, func(t *testing.T) {
			dns, err := ParseDNS(tt.ttl, "", "")
			if err != nil {
				t.Fatal(err)
			}
			f := &fakeLookup{answers: map[string][]string{"h.test": {"10.0.0.1"}}}
			r := NewResolver(dns, f.lookup)
			start := time.Unix(1000, 0)
			now := start
			r.SetClock(func() time.Time { return now })
			for i, at := range []time.Duration{0, 59 * time.Second, 61 * time.Second, time.Hour} {
				now = start.Add(at)
				if _, err := r.Resolve(context.Background(), "H.test"); err != nil {
					t.Fatal(err)
				}
				if f.calls != tt.want[i] {
					t.Fatalf("after the lookup at %v: %d calls, want %d", at, f.calls, tt.want[i])
				}
			}
		})
	}
}

func TestResolverErrors(t *testing.T) {
	f := &fakeLookup{answers: map[string][]string{}}
	r := NewResolver(DefaultDNS, f.lookup)
	for range 2 {
		_, err := r.Resolve(context.Background(), "missing.test")
		var dnsErr *net.DNSError
		if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
			t.Fatalf("err = %v, want not found", err)
		}
	}
	if f.calls != 2 {
		t.Errorf("%d lookups, want 2: failures are not cached", f.calls)
	}
	got, err := r.Resolve(context.Background(), "[::1]")
	if err != nil || strs(got)[0] != "::1" || f.calls != 2 {
		t.Errorf("an IP literal: %v, %v, %d calls", got, err, f.calls)
	}
}

func TestParseDNSErrors(t *testing.T) {
	for _, tt := range [][3]string{{"-1s", "", ""}, {"soon", "", ""}, {"", "last", ""}, {"", "", "ipv4"}} {
		if _, err := ParseDNS(tt[0], tt[1], tt[2]); err == nil {
			t.Errorf("ParseDNS%q: no error", tt)
		}
	}
	d, err := ParseDNS("", "", "")
	if err != nil || d != DefaultDNS {
		t.Errorf("empty fields: %+v, %v; want k6's defaults", d, err)
	}
}
