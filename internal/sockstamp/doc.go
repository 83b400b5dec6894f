// Package sockstamp reads sockets with the kernel's timestamps: the time
// the bytes of a read reached the socket (SO_TIMESTAMPNS on Linux), so a
// busy program that reads late still knows when they arrived, and the time
// the bytes of a write left for the device (SO_TIMESTAMPING transmit
// stamps, EnableTX and ReadTX), so a program descheduled between deciding
// to send and its write still knows when the request went out. The
// probe's reactor and its stamping connections under crypto/tls and
// HTTP/2 read through it, and so do k6/http's connections (its timings).
package sockstamp
