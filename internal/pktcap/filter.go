package pktcap

import "golang.org/x/net/bpf"

// filter is the kernel's packet filter of a Capture, run on each packet
// from its network header on: it keeps TCP segments over IPv4 or IPv6 that
// carry data or a SYN, cut after snapLen bytes, and drops the rest (pure
// acknowledgements, other protocols) before they are copied to the
// program.
var filter = []bpf.Instruction{
	/* 0 */ bpf.LoadAbsolute{Off: 0, Size: 1},
	/* 1 */ bpf.ALUOpConstant{Op: bpf.ALUOpShiftRight, Val: 4},
	/* 2 */ bpf.JumpIf{Cond: bpf.JumpEqual, Val: 4, SkipTrue: 0, SkipFalse: 14}, // → 17 (IPv6?)
	// IPv4: protocol TCP, first fragment.
	/* 3 */ bpf.LoadAbsolute{Off: 9, Size: 1},
	/* 4 */ bpf.JumpIf{Cond: bpf.JumpEqual, Val: ipProtoTCP, SkipFalse: 27}, // → 32 drop
	/* 5 */ bpf.LoadAbsolute{Off: 6, Size: 2},
	/* 6 */ bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: 0x1fff, SkipTrue: 25}, // → 32 drop
	/* 7 */ bpf.LoadMemShift{Off: 0}, // X = IPv4 header length
	/* 8 */ bpf.LoadIndirect{Off: 13, Size: 1}, // TCP flags
	/* 9 */ bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: tcpFlagSYN, SkipTrue: 21}, // → 31 keep
	/* 10 */ bpf.LoadAbsolute{Off: 2, Size: 2}, // total length
	/* 11 */ bpf.ALUOpX{Op: bpf.ALUOpSub}, // − IP header
	/* 12 */ bpf.StoreScratch{Src: bpf.RegA, N: 0},
	/* 13 */ bpf.LoadIndirect{Off: 12, Size: 1}, // TCP data offset << 4
	/* 14 */ bpf.ALUOpConstant{Op: bpf.ALUOpShiftRight, Val: 2},
	/* 15 */ bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: 0x3c}, // TCP header length
	/* 16 */ bpf.Jump{Skip: 10}, // → 27 compare
	// IPv6: next header TCP (no extension headers).
	/* 17 */ bpf.JumpIf{Cond: bpf.JumpEqual, Val: 6, SkipFalse: 14}, // → 32 drop
	/* 18 */ bpf.LoadAbsolute{Off: 6, Size: 1},
	/* 19 */ bpf.JumpIf{Cond: bpf.JumpEqual, Val: ipProtoTCP, SkipFalse: 12}, // → 32 drop
	/* 20 */ bpf.LoadAbsolute{Off: 53, Size: 1}, // TCP flags
	/* 21 */ bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: tcpFlagSYN, SkipTrue: 9}, // → 31 keep
	/* 22 */ bpf.LoadAbsolute{Off: 4, Size: 2}, // payload length
	/* 23 */ bpf.StoreScratch{Src: bpf.RegA, N: 0},
	/* 24 */ bpf.LoadAbsolute{Off: 52, Size: 1}, // TCP data offset << 4
	/* 25 */ bpf.ALUOpConstant{Op: bpf.ALUOpShiftRight, Val: 2},
	/* 26 */ bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: 0x3c}, // TCP header length
	// Keep the segment when the TCP payload is not empty.
	/* 27 */ bpf.TAX{},
	/* 28 */ bpf.LoadScratch{Dst: bpf.RegA, N: 0},
	/* 29 */ bpf.ALUOpX{Op: bpf.ALUOpSub},
	/* 30 */ bpf.JumpIf{Cond: bpf.JumpGreaterThan, Val: 0, SkipFalse: 1}, // → 32 drop
	/* 31 */ bpf.RetConstant{Val: snapLen},
	/* 32 */ bpf.RetConstant{Val: 0},
}

// packetOutgoing is the packet type (struct sockaddr_ll's sll_pkttype) of
// a packet the machine sends.
const packetOutgoing = 4

// kernelFilter is filter behind a check that drops the packets the machine
// sends: a tracked connection's received segments pass the device on
// their way in (on loopback each packet passes twice, out and in), and
// what the runner sends is not wanted at all. The check reads the
// packet's type, a Linux extension that x/net's BPF VM does not run: the
// tests run filter.
func kernelFilter() []bpf.Instruction {
	drop := len(filter) - 1 // filter's last instruction drops
	return append([]bpf.Instruction{
		bpf.LoadExtension{Num: bpf.ExtType},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: packetOutgoing, SkipTrue: uint8(drop)}, // → filter's drop
	}, filter...)
}

// snapLen is how much of a packet the filter keeps: the largest IPv6 and
// TCP headers (40 + 60 bytes) fit; the payload is not needed.
const snapLen = 128
