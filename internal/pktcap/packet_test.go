package pktcap

import (
	"encoding/binary"
	"net/netip"
	"testing"

	"golang.org/x/net/bpf"
)

// tcpPacket builds an IPv4 or IPv6 packet (from its network header) with
// a TCP segment of flags and payload bytes, 12 bytes of TCP options.
func tcpPacket(v6 bool, src, dst netip.AddrPort, seq uint32, flags byte, payload int) []byte {
	tcp := make([]byte, 32+payload)
	binary.BigEndian.PutUint16(tcp[0:], src.Port())
	binary.BigEndian.PutUint16(tcp[2:], dst.Port())
	binary.BigEndian.PutUint32(tcp[4:], seq)
	tcp[12] = 8 << 4 // 32-byte header
	tcp[13] = flags
	if v6 {
		ip := make([]byte, 40)
		ip[0] = 6 << 4
		binary.BigEndian.PutUint16(ip[4:], uint16(len(tcp)))
		ip[6] = ipProtoTCP
		s, d := src.Addr().As16(), dst.Addr().As16()
		copy(ip[8:], s[:])
		copy(ip[24:], d[:])
		return append(ip, tcp...)
	}
	ip := make([]byte, 20)
	ip[0] = 4<<4 | 5
	binary.BigEndian.PutUint16(ip[2:], uint16(20+len(tcp)))
	ip[9] = ipProtoTCP
	s, d := src.Addr().As4(), dst.Addr().As4()
	copy(ip[12:], s[:])
	copy(ip[16:], d[:])
	return append(ip, tcp...)
}

var (
	server4 = netip.MustParseAddrPort("127.0.0.1:8080")
	client4 = netip.MustParseAddrPort("127.0.0.1:40000")
	server6 = netip.MustParseAddrPort("[::1]:8080")
	client6 = netip.MustParseAddrPort("[::1]:40000")
)

// TestFilterKeepsDataAndSYNs runs the kernel filter in x/net's BPF VM:
// TCP segments with data or a SYN pass (cut to snapLen), bare ACKs,
// later fragments and other protocols don't.
func TestFilterKeepsDataAndSYNs(t *testing.T) {
	vm, err := bpf.NewVM(filter)
	if err != nil {
		t.Fatal(err)
	}
	udp := tcpPacket(false, server4, client4, 1, 0x10, 10)
	udp[9] = 17
	fragment := tcpPacket(false, server4, client4, 1, 0x18, 10)
	binary.BigEndian.PutUint16(fragment[6:], 185)
	for _, tc := range []struct {
		name string
		pkt  []byte
		keep bool
	}{
		{"IPv4 data", tcpPacket(false, server4, client4, 1, 0x18, 100), true},
		{"IPv4 ACK", tcpPacket(false, server4, client4, 1, 0x10, 0), false},
		{"IPv4 SYN-ACK", tcpPacket(false, server4, client4, 1, 0x12, 0), true},
		{"IPv6 data", tcpPacket(true, server6, client6, 1, 0x18, 1), true},
		{"IPv6 ACK", tcpPacket(true, server6, client6, 1, 0x10, 0), false},
		{"IPv6 SYN-ACK", tcpPacket(true, server6, client6, 1, 0x12, 0), true},
		{"UDP", udp, false},
		{"later fragment", fragment, false},
	} {
		n, err := vm.Run(tc.pkt)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if keep := n > 0; keep != tc.keep {
			t.Errorf("%s: kept %d bytes, want kept %v", tc.name, n, tc.keep)
		}
		if n > snapLen {
			t.Errorf("%s: kept %d bytes, more than %d", tc.name, n, snapLen)
		}
	}
}

// TestParse reads addresses, sequence number, SYN-ACK and payload size of
// IPv4 and IPv6 segments, cut after their headers as the filter cuts them.
func TestParse(t *testing.T) {
	for _, v6 := range []bool{false, true} {
		src, dst := server4, client4
		if v6 {
			src, dst = server6, client6
		}
		pkt := tcpPacket(v6, src, dst, 0xfffffff0, 0x18, 300)
		s, ok := parse(pkt[:min(len(pkt), snapLen)])
		if !ok || s.src != src || s.dst != dst || s.seq != 0xfffffff0 || s.synAck || s.payload != 300 {
			t.Errorf("v6 %v: parsed %+v %v", v6, s, ok)
		}
		s, ok = parse(tcpPacket(v6, src, dst, 7, 0x12, 0))
		if !ok || !s.synAck || s.payload != 0 {
			t.Errorf("v6 %v: SYN-ACK parsed %+v %v", v6, s, ok)
		}
		if _, ok := parse(pkt[:30]); ok {
			t.Errorf("v6 %v: headers cut short parsed", v6)
		}
	}
}

// FuzzParse feeds parse any bytes: it never panics, and what it accepts
// is a TCP segment with a payload that fits its IP packet's length.
func FuzzParse(f *testing.F) {
	f.Add(tcpPacket(false, server4, client4, 1, 0x18, 100)[:snapLen])
	f.Add(tcpPacket(true, server6, client6, 1, 0x12, 0))
	f.Add([]byte{0x45})
	f.Fuzz(func(t *testing.T, b []byte) {
		s, ok := parse(b)
		if !ok {
			return
		}
		if s.payload < 0 || s.payload > 65535 {
			t.Fatalf("payload %d", s.payload)
		}
		if !s.src.IsValid() || !s.dst.IsValid() {
			t.Fatalf("addresses %v %v", s.src, s.dst)
		}
	})
}
