package netstack

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Select says which of a host's addresses a connection uses first (k6's
// dns.select).
type Select int

// The choices of dns.select.
const (
	// SelectRandom starts at a random address (k6's default).
	SelectRandom Select = iota
	// SelectFirst always starts at the first address of the answer.
	SelectFirst
	// SelectRoundRobin starts each lookup of a host at the address after
	// the previous lookup's.
	SelectRoundRobin
)

// Policy says which IP versions of a host's addresses are used (k6's
// dns.policy).
type Policy int

// The choices of dns.policy.
const (
	// PreferIPv4 uses the IPv4 addresses when there are some, else the
	// IPv6 ones (k6's default).
	PreferIPv4 Policy = iota
	// PreferIPv6 uses the IPv6 addresses when there are some, else the
	// IPv4 ones.
	PreferIPv6
	// OnlyIPv4 uses the IPv4 addresses only.
	OnlyIPv4
	// OnlyIPv6 uses the IPv6 addresses only.
	OnlyIPv6
	// Any uses every address, in the order of the answer.
	Any
)

// Forever is the TTL of a cache that never expires (dns.ttl "inf").
const Forever time.Duration = -1

// DNS is k6's dns option. The zero value is not k6's default: use
// DefaultDNS.
type DNS struct {
	// TTL is how long an answer is cached: 0 not at all, Forever for the
	// whole run. k6's default is 5 minutes.
	TTL    time.Duration
	Select Select
	Policy Policy
}

// DefaultDNS is k6's default: ttl 5m, select random, policy preferIPv4.
var DefaultDNS = DNS{TTL: 5 * time.Minute, Select: SelectRandom, Policy: PreferIPv4}

var (
	selectNames = map[string]Select{"first": SelectFirst, "random": SelectRandom, "roundRobin": SelectRoundRobin}
	policyNames = map[string]Policy{
		"preferIPv4": PreferIPv4, "preferIPv6": PreferIPv6, "onlyIPv4": OnlyIPv4, "onlyIPv6": OnlyIPv6, "any": Any,
	}
)

// ParseDNS reads the fields of k6's dns option; an empty field keeps its
// default. ttl is "inf", a whole number of milliseconds ("0" disables the
// cache) or a Go duration ("5m", "1h30m").
func ParseDNS(ttl, sel, policy string) (DNS, error) {
	d := DefaultDNS
	var err error
	if ttl != "" {
		if d.TTL, err = ParseTTL(ttl); err != nil {
			return DNS{}, err
		}
	}
	if sel != "" {
		s, ok := selectNames[sel]
		if !ok {
			return DNS{}, fmt.Errorf("dns: invalid select %q: want first, random or roundRobin", sel)
		}
		d.Select = s
	}
	if policy != "" {
		p, ok := policyNames[policy]
		if !ok {
			return DNS{}, fmt.Errorf("dns: invalid policy %q: want preferIPv4, preferIPv6, onlyIPv4, onlyIPv6 or any", policy)
		}
		d.Policy = p
	}
	return d, nil
}

// ParseTTL reads dns.ttl: "inf" is Forever, a whole number is
// milliseconds, anything else a Go duration that is not negative.
func ParseTTL(s string) (time.Duration, error) {
	if s == "inf" {
		return Forever, nil
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil && ms >= 0 {
		return time.Duration(ms) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("dns: invalid ttl %q: want \"inf\", milliseconds or a duration such as \"5m\"", s)
	}
	return d, nil
}

// LookupFunc resolves a host name to its addresses, as
// net.Resolver.LookupNetIP(ctx, "ip", host) does.
type LookupFunc func(ctx context.Context, host string) ([]netip.Addr, error)

// ErrNoAddress is the failure of a lookup whose answer has no address of
// the versions the policy allows.
var ErrNoAddress = errors.New("netstack: no address of the IP version the dns policy allows")

// Resolver resolves host names with a cache and k6's dns select and policy
// choices. One Resolver serves every VU of a run (k6 shares its cache
// too). It is safe for concurrent use.
type Resolver struct {
	dns    DNS
	lookup LookupFunc
	now    func() time.Time

	mu    sync.Mutex
	cache map[string]cached
	next  map[string]uint64 // round-robin position per host
}

// cached is one answer and when it was looked up.
type cached struct {
	addrs []netip.Addr
	at    time.Time
}

// NewResolver returns a resolver of the dns option over lookup; nil
// lookup is the system's resolver.
func NewResolver(dns DNS, lookup LookupFunc) *Resolver {
	if lookup == nil {
		lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	return &Resolver{dns: dns, lookup: lookup, now: time.Now, cache: map[string]cached{}, next: map[string]uint64{}}
}

// SetClock replaces the resolver's clock (tests of the TTL).
func (r *Resolver) SetClock(now func() time.Time) { r.now = now }

// Resolve returns the addresses of host the policy allows, in the order
// connections try them: the selected address first, then the others in
// the answer's order after it. An IP address is its own answer.
func (r *Resolver) Resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return []netip.Addr{a.Unmap()}, nil
	}
	all, err := r.answer(ctx, host)
	if err != nil {
		return nil, err
	}
	addrs := r.dns.Policy.filter(all)
	if len(addrs) == 0 {
		return nil, &net.DNSError{Err: ErrNoAddress.Error(), Name: host, IsNotFound: true}
	}
	return rotate(addrs, r.start(strings.ToLower(host), len(addrs))), nil
}

// answer returns the cached answer for host, or looks it up.
func (r *Resolver) answer(ctx context.Context, host string) ([]netip.Addr, error) {
	key := strings.ToLower(host)
	r.mu.Lock()
	c, ok := r.cache[key]
	r.mu.Unlock()
	if ok && r.fresh(c) {
		return c.addrs, nil
	}
	addrs, err := r.lookup(ctx, key)
	if err != nil {
		return nil, err
	}
	for i, a := range addrs {
		addrs[i] = a.Unmap()
	}
	if r.dns.TTL != 0 {
		r.mu.Lock()
		r.cache[key] = cached{addrs: addrs, at: r.now()}
		r.mu.Unlock()
	}
	return addrs, nil
}

// fresh reports whether c is within the TTL.
func (r *Resolver) fresh(c cached) bool {
	return r.dns.TTL == Forever || r.now().Sub(c.at) < r.dns.TTL
}

// start returns the index of the selected one of n addresses of host.
func (r *Resolver) start(host string, n int) int {
	switch r.dns.Select {
	case SelectFirst:
		return 0
	case SelectRoundRobin:
		r.mu.Lock()
		defer r.mu.Unlock()
		i := r.next[host]
		r.next[host] = i + 1
		return int(i % uint64(n))
	default:
		return rand.IntN(n)
	}
}

// rotate returns addrs starting at index i, wrapping around.
func rotate(addrs []netip.Addr, i int) []netip.Addr {
	return slices.Concat(addrs[i:], addrs[:i])
}

// filter returns the addresses of all the policy allows, in their order.
func (p Policy) filter(all []netip.Addr) []netip.Addr {
	v4 := slices.DeleteFunc(slices.Clone(all), func(a netip.Addr) bool { return !a.Is4() })
	v6 := slices.DeleteFunc(slices.Clone(all), func(a netip.Addr) bool { return a.Is4() })
	switch p {
	case OnlyIPv4:
		return v4
	case OnlyIPv6:
		return v6
	case PreferIPv6:
		if len(v6) > 0 {
			return v6
		}
		return v4
	case Any:
		return slices.Clone(all)
	default:
		if len(v4) > 0 {
			return v4
		}
		return v6
	}
}
