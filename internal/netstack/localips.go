package netstack

import (
	"fmt"
	"math/big"
	"net/netip"
	"strings"
)

// LocalIPs is k6's localIPs option: the addresses connections are sent
// from, VU n using the n-th one (cycling when there are more VUs than
// addresses). The zero value binds nothing.
type LocalIPs struct {
	blocks []ipBlock
	count  *big.Int
}

// ipBlock is a run of consecutive addresses.
type ipBlock struct {
	first netip.Addr
	count *big.Int
}

// ParseLocalIPs reads localIPs: comma-separated addresses
// ("192.168.0.10"), ranges ("192.168.0.10-192.168.0.25") and CIDRs
// ("10.0.0.0/24", every address of the prefix). "" is the zero value.
func ParseLocalIPs(s string) (LocalIPs, error) {
	out := LocalIPs{count: new(big.Int)}
	if strings.TrimSpace(s) == "" {
		return LocalIPs{}, nil
	}
	for _, part := range strings.Split(s, ",") {
		b, err := parseBlock(strings.TrimSpace(part))
		if err != nil {
			return LocalIPs{}, fmt.Errorf("localIPs: %w", err)
		}
		out.blocks = append(out.blocks, b)
		out.count.Add(out.count, b.count)
	}
	return out, nil
}

// parseBlock reads one address, range or CIDR.
func parseBlock(s string) (ipBlock, error) {
	if from, to, ok := strings.Cut(s, "-"); ok {
		a, err1 := netip.ParseAddr(strings.TrimSpace(from))
		b, err2 := netip.ParseAddr(strings.TrimSpace(to))
		if err1 != nil || err2 != nil || a.Is4() != b.Is4() || b.Less(a) {
			return ipBlock{}, fmt.Errorf("invalid range %q: want first-last, both of one IP version, first <= last", s)
		}
		n := new(big.Int).Sub(addrInt(b), addrInt(a))
		return ipBlock{first: a, count: n.Add(n, big.NewInt(1))}, nil
	}
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return ipBlock{}, fmt.Errorf("invalid CIDR %q", s)
		}
		p = p.Masked()
		return ipBlock{first: p.Addr(), count: new(big.Int).Lsh(big.NewInt(1), uint(p.Addr().BitLen()-p.Bits()))}, nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return ipBlock{}, fmt.Errorf("invalid address %q: want an IP, a range a-b or a CIDR", s)
	}
	return ipBlock{first: a.Unmap(), count: big.NewInt(1)}, nil
}

// ForVU returns the address of VU id (from 1): the (id-1)-th of the list,
// modulo its length; the zero Addr when the list is empty.
func (l LocalIPs) ForVU(id int64) netip.Addr {
	if len(l.blocks) == 0 || id < 1 {
		return netip.Addr{}
	}
	i := new(big.Int).Rem(big.NewInt(id-1), l.count)
	for _, b := range l.blocks {
		if i.Cmp(b.count) < 0 {
			return addrAdd(b.first, i)
		}
		i.Sub(i, b.count)
	}
	return netip.Addr{}
}

// Len returns the number of addresses.
func (l LocalIPs) Len() int64 {
	if l.count == nil {
		return 0
	}
	return l.count.Int64()
}

// addrInt returns a as a number.
func addrInt(a netip.Addr) *big.Int {
	return new(big.Int).SetBytes(a.AsSlice())
}

// addrAdd returns the address n after a, of a's version.
func addrAdd(a netip.Addr, n *big.Int) netip.Addr {
	v := addrInt(a)
	v.Add(v, n)
	buf := make([]byte, a.BitLen()/8)
	v.FillBytes(buf)
	out, _ := netip.AddrFromSlice(buf)
	return out
}
