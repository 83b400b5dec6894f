// Package pktcap gives each byte a connection received the arrival time of
// the TCP segment that carried it, even when the program read it late.
//
// The kernel stamps a socket read with the time of the newest segment in
// it (it merges queued segments in the receive queue), so events that
// waited together are all stamped as late as the last. A packet socket
// sees every segment on its own, stamped as it passed the device. A
// Capture opens one (AF_PACKET, which needs CAP_NET_RAW), lets through
// only TCP segments that carry data or open a connection (a kernel BPF
// filter), and maps each tracked connection's sequence numbers to offsets
// in its byte stream. A reader then asks, for the bytes a read returned,
// where the segments that completed them end and when they arrived
// (Stream.Split), and hands the bytes on piece by piece, each with its
// own time.
//
// The segments are queued on the packet socket before the data is
// readable on the connection (the device's tap comes first on both
// loopback and real interfaces), so a reader that drains the capture
// right after its read finds them.
package pktcap
