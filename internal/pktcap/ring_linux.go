//go:build linux

package pktcap

import (
	"os"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The receive ring's shape: frames of ringFrame bytes (a frame header, the
// link-layer address, alignment and snapLen bytes of packet), blocks of
// ringBlock bytes, ringBlocks of them. 8,192 frames hold a third of a
// second of a 1,000-streams/s run's segments between two drains.
const (
	ringFrame  = 256
	ringBlock  = 64 << 10
	ringBlocks = 32
	ringFrames = ringBlock / ringFrame * ringBlocks
)

// ring is a packet socket's receive ring (PACKET_RX_RING, TPACKET_V2):
// frames in memory shared with the kernel, which fills one per packet and
// hands it over by its status word. Reading a packet takes no system
// call.
type ring struct {
	mem  []byte
	head int // the next frame to read
}

// newRing sets up fd's receive ring and maps it.
func newRing(fd int) (*ring, error) {
	if err := unix.SetsockoptInt(fd, unix.SOL_PACKET, unix.PACKET_VERSION, unix.TPACKET_V2); err != nil {
		return nil, os.NewSyscallError("setsockopt PACKET_VERSION", err)
	}
	req := unix.TpacketReq{Block_size: ringBlock, Block_nr: ringBlocks, Frame_size: ringFrame, Frame_nr: ringFrames}
	if err := unix.SetsockoptTpacketReq(fd, unix.SOL_PACKET, unix.PACKET_RX_RING, &req); err != nil {
		return nil, os.NewSyscallError("setsockopt PACKET_RX_RING", err)
	}
	mem, err := unix.Mmap(fd, 0, ringBlock*ringBlocks, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return nil, os.NewSyscallError("mmap", err)
	}
	return &ring{mem: mem}, nil
}

// frame returns the header of frame i (blocks hold whole frames, so
// frames lie back to back).
func (r *ring) frame(i int) *unix.Tpacket2Hdr {
	return (*unix.Tpacket2Hdr)(unsafe.Pointer(&r.mem[i*ringFrame]))
}

// next returns the oldest packet the kernel handed over, from its network
// header on, with its receive time (ns since the epoch) and whether the
// kernel dropped packets for want of a free frame since; ok is false when
// there is none. The bytes are valid until release.
func (r *ring) next() (pkt []byte, rx int64, losing, ok bool) {
	h := r.frame(r.head)
	st := atomic.LoadUint32(&h.Status)
	if st&unix.TP_STATUS_USER == 0 {
		return nil, 0, false, false
	}
	start := r.head*ringFrame + int(h.Net)
	end := start + int(h.Snaplen)
	if end > (r.head+1)*ringFrame {
		start, end = 0, 0 // a frame the kernel can't have written: an empty packet, which parse skips
	}
	return r.mem[start:end], int64(h.Sec)*1e9 + int64(h.Nsec), st&unix.TP_STATUS_LOSING != 0, true
}

// release gives the frame next returned back to the kernel.
func (r *ring) release() {
	atomic.StoreUint32(&r.frame(r.head).Status, unix.TP_STATUS_KERNEL)
	r.head = (r.head + 1) % ringFrames
}

// close unmaps the ring.
func (r *ring) close() error { return unix.Munmap(r.mem) }
