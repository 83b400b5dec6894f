//go:build linux

package sockstamp

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// nextCmsg splits the first control message off oob: its header, its data
// and the messages after it; valid is false when the header is malformed.
func nextCmsg(oob []byte) (h *unix.Cmsghdr, data, rest []byte, valid bool) {
	const hdr = unix.SizeofCmsghdr
	h = (*unix.Cmsghdr)(unsafe.Pointer(&oob[0]))
	l := int(h.Len)
	if l < hdr || l > len(oob) {
		return nil, nil, nil, false
	}
	next := min((l+7)&^7, len(oob))
	return h, oob[hdr:l], oob[next:], true
}
