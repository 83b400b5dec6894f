package k6http

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// errBlockedHost is the failure of a request to a host of the
// blockHostnames option (k6's error code 1111).
var errBlockedHost = errors.New("hostname is blocked")

// errBlacklistedIP is the failure of a request whose host resolves only to
// addresses of the blacklistIPs option (k6's error code 1110).
var errBlacklistedIP = errors.New("ip is blacklisted")

// dialer dials the connections of a VU's transport: it refuses blocked
// host names, routes host names through the hosts option, never dials a
// blacklisted address, and counts the bytes of every connection.
type dialer struct {
	net       *net.Dialer
	hosts     map[string]string
	blocked   []string
	blacklist []netip.Prefix
}

// newDialer returns the dialer of the options; CIDRs that do not parse
// (the options package has checked them) are skipped.
func newDialer(d *net.Dialer, opts clientOptions) *dialer {
	out := &dialer{net: d, hosts: opts.Hosts, blocked: opts.BlockHostnames}
	for _, s := range opts.BlacklistIPs {
		if p, err := netip.ParsePrefix(s); err == nil {
			out.blacklist = append(out.blacklist, p)
		} else if a, err := netip.ParseAddr(s); err == nil {
			out.blacklist = append(out.blacklist, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return out
}

// DialContext dials addr ("host:port") on network.
func (d *dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if matchAny(d.blocked, host) {
		return nil, &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("%s: %w", host, errBlockedHost)}
	}
	host, port = d.route(host, port)
	if len(d.blacklist) > 0 {
		return d.dialAllowed(ctx, network, host, port)
	}
	return d.count(d.net.DialContext(ctx, network, net.JoinHostPort(host, port)))
}

// route applies the hosts option: an entry for host:port wins over one for
// host, an exact name over a wildcard; an entry's port, when it has one,
// replaces the request's.
func (d *dialer) route(host, port string) (string, string) {
	if len(d.hosts) == 0 {
		return host, port
	}
	to, ok := d.hosts[net.JoinHostPort(host, port)]
	if !ok {
		to, ok = d.hosts[host]
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
func (d *dialer) wildcardRoute(host, port string) (string, bool) {
	for pattern, to := range d.hosts {
		name, p, err := net.SplitHostPort(pattern)
		if err != nil {
			name, p = pattern, port
		}
		if p == port && strings.HasPrefix(name, "*.") && matchHost(name, host) {
			return to, true
		}
	}
	return "", false
}

// dialAllowed resolves host and dials its addresses that are not
// blacklisted, in order, until one connects.
func (d *dialer) dialAllowed(ctx context.Context, network, host, port string) (net.Conn, error) {
	addrs, err := d.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for _, a := range addrs {
		if d.blacklisted(a) {
			lastErr = &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("%s: %w", a, errBlacklistedIP)}
			continue
		}
		c, err := d.count(d.net.DialContext(ctx, network, net.JoinHostPort(a.String(), port)))
		if err == nil {
			return c, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// resolve returns the addresses of host, an IP or a name.
func (d *dialer) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// blacklisted reports whether a is in one of the blacklisted ranges.
func (d *dialer) blacklisted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range d.blacklist {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// count wraps a new connection so that its bytes are counted.
func (d *dialer) count(c net.Conn, err error) (net.Conn, error) {
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c}, nil
}

// matchAny reports whether host matches one of the patterns.
func matchAny(patterns []string, host string) bool {
	for _, p := range patterns {
		if matchHost(p, host) {
			return true
		}
	}
	return false
}

// matchHost reports whether host matches pattern, case-insensitively: the
// same name, or for "*.example.com" any name ending in ".example.com".
func matchHost(pattern, host string) bool {
	pattern, host = strings.ToLower(pattern), strings.ToLower(strings.TrimSuffix(host, "."))
	if rest, ok := strings.CutPrefix(pattern, "*"); ok {
		return strings.HasSuffix(host, rest)
	}
	return pattern == host
}
