package netstack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"
)

// ErrBlockedHost is the failure of a dial to a host of the blockHostnames
// option (k6's error code 1111).
var ErrBlockedHost = errors.New("hostname is blocked")

// ErrBlacklistedIP is the failure of a dial to a host whose addresses are
// all in the blacklistIPs option (k6's error code 1110).
var ErrBlacklistedIP = errors.New("ip is blacklisted")

// Config is what a Dialer applies: k6's hosts, blockHostnames,
// blacklistIPs and the VU's localIPs address. The zero value dials as
// net.Dialer does, through the Resolver.
type Config struct {
	// Hosts maps host names, or host:port, to other addresses (hosts): an
	// entry for host:port wins over one for host, an exact name over a
	// "*.domain" wildcard; a target's port replaces the request's.
	Hosts map[string]string
	// BlockHostnames are host names, "*.example.com" wildcards allowed,
	// that are never dialed.
	BlockHostnames []string
	// BlacklistIPs are the ranges never dialed.
	BlacklistIPs []netip.Prefix
	// LocalAddr is the address connections are sent from (the VU's
	// localIPs address); the zero Addr lets the system choose.
	LocalAddr netip.Addr
	// Timeout bounds each connection attempt; defaults to 30 s.
	Timeout time.Duration
}

// ParseBlacklist reads blacklistIPs entries: CIDRs or single addresses.
func ParseBlacklist(entries []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range entries {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
		} else if a, err := netip.ParseAddr(s); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		} else {
			return nil, fmt.Errorf("blacklistIPs: invalid %q: want a CIDR such as 10.0.0.0/8 or an address", s)
		}
	}
	return out, nil
}

// Dialer dials the connections of one VU's clients: it refuses blocked
// host names, routes names through the hosts option, resolves them with
// the run's Resolver, never dials a blacklisted address, and binds the
// VU's local address. It is safe for concurrent use.
type Dialer struct {
	cfg      Config
	resolver *Resolver
	net      net.Dialer
}

// NewDialer returns a dialer of cfg resolving names with r (nil: a
// resolver of k6's default dns option).
func NewDialer(cfg Config, r *Resolver) *Dialer {
	if r == nil {
		r = NewResolver(DefaultDNS, nil)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	d := &Dialer{cfg: cfg, resolver: r, net: net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second}}
	if cfg.LocalAddr.IsValid() {
		d.net.LocalAddr = &net.TCPAddr{IP: cfg.LocalAddr.AsSlice()}
	}
	return d
}

// DialContext dials addr ("host:port") on network, as net.Dialer does,
// with the options applied. A failure is a *net.OpError; a blocked host
// or blacklisted address wraps ErrBlockedHost or ErrBlacklistedIP.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if MatchAny(d.cfg.BlockHostnames, host) {
		return nil, &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("%s: %w", host, ErrBlockedHost)}
	}
	host, port = d.route(host, port)
	addrs, err := d.resolver.Resolve(ctx, host)
	if err != nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: err}
	}
	var lastErr error
	for _, a := range addrs {
		if d.blacklisted(a) {
			lastErr = &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("%s: %w", a, ErrBlacklistedIP)}
			continue
		}
		c, err := d.net.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, lastErr
}

// route applies the hosts option.
func (d *Dialer) route(host, port string) (string, string) {
	if len(d.cfg.Hosts) == 0 {
		return host, port
	}
	to, ok := d.cfg.Hosts[net.JoinHostPort(host, port)]
	if !ok {
		to, ok = d.cfg.Hosts[host]
	}
	if !ok {
		to, ok = d.wildcardRoute(host, port)
	}
	if !ok {
		return host, port
	}
	if h, p, err := net.SplitHostPort(to); err == nil {
		return h, p
	}
	return strings.Trim(to, "[]"), port
}

// wildcardRoute finds the "*.domain" entry of host, with or without the
// port.
func (d *Dialer) wildcardRoute(host, port string) (string, bool) {
	for pattern, to := range d.cfg.Hosts {
		name, p, err := net.SplitHostPort(pattern)
		if err != nil {
			name, p = pattern, port
		}
		if p == port && strings.HasPrefix(name, "*.") && MatchHost(name, host) {
			return to, true
		}
	}
	return "", false
}

// blacklisted reports whether a is in one of the blacklisted ranges.
func (d *Dialer) blacklisted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range d.cfg.BlacklistIPs {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// MatchAny reports whether host matches one of the patterns.
func MatchAny(patterns []string, host string) bool {
	for _, p := range patterns {
		if MatchHost(p, host) {
			return true
		}
	}
	return false
}

// MatchHost reports whether host matches pattern, case-insensitively: the
// same name, or for "*.example.com" any name ending in ".example.com".
func MatchHost(pattern, host string) bool {
	pattern, host = strings.ToLower(pattern), strings.ToLower(strings.TrimSuffix(host, "."))
	if rest, ok := strings.CutPrefix(pattern, "*"); ok {
		return strings.HasSuffix(host, rest)
	}
	return pattern == host
}
