package pktcap

import (
	"encoding/binary"
	"net/netip"
)

// segment is what the capture keeps of one TCP segment.
type segment struct {
	src, dst netip.AddrPort
	seq      uint32
	synAck   bool // a server's answer to a SYN: seq is its ISN
	payload  int  // data bytes
}

// TCP header fields and flags (RFC 9293).
const (
	ipProtoTCP = 6
	tcpFlagSYN = 0x02
	tcpFlagACK = 0x10
	tcpMinLen  = 20
)

// parse reads an IPv4 or IPv6 packet carrying a TCP segment, from its
// network header on (a packet socket of type SOCK_DGRAM), cut after the
// headers or not: the payload's size comes from the headers' lengths. ok
// is false for anything else: other protocols, IPv4 fragments past the
// first, IPv6 extension headers, headers cut short.
func parse(b []byte) (s segment, ok bool) {
	if len(b) < 1 {
		return s, false
	}
	var tcp []byte
	total := 0 // the TCP segment's length, header included
	switch b[0] >> 4 {
	case 4:
		ihl := int(b[0]&0x0f) * 4
		if len(b) < 20 || ihl < 20 || len(b) < ihl || b[9] != ipProtoTCP ||
			binary.BigEndian.Uint16(b[6:])&0x1fff != 0 {
			return s, false
		}
		total = int(binary.BigEndian.Uint16(b[2:])) - ihl
		src, _ := netip.AddrFromSlice(b[12:16])
		dst, _ := netip.AddrFromSlice(b[16:20])
		s.src, s.dst = netip.AddrPortFrom(src, 0), netip.AddrPortFrom(dst, 0)
		tcp = b[ihl:]
	case 6:
		if len(b) < 40 || b[6] != ipProtoTCP {
			return s, false
		}
		total = int(binary.BigEndian.Uint16(b[4:]))
		src, _ := netip.AddrFromSlice(b[8:24])
		dst, _ := netip.AddrFromSlice(b[24:40])
		s.src, s.dst = netip.AddrPortFrom(src, 0), netip.AddrPortFrom(dst, 0)
		tcp = b[40:]
	default:
		return s, false
	}
	if len(tcp) < tcpMinLen {
		return s, false
	}
	off := int(tcp[12]>>4) * 4
	if off < tcpMinLen || total < off {
		return s, false
	}
	s.src = netip.AddrPortFrom(s.src.Addr(), binary.BigEndian.Uint16(tcp[0:]))
	s.dst = netip.AddrPortFrom(s.dst.Addr(), binary.BigEndian.Uint16(tcp[2:]))
	s.seq = binary.BigEndian.Uint32(tcp[4:])
	s.synAck = tcp[13]&(tcpFlagSYN|tcpFlagACK) == tcpFlagSYN|tcpFlagACK
	s.payload = total - off
	return s, true
}
