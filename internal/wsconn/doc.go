// Package wsconn is the WebSocket client connection of the k6/websockets
// and k6/ws modules, usable from Go without a JavaScript runtime: the
// handshake over the run's dialer and TLS configuration (so hosts,
// blockHostnames, blacklistIPs and the TLS options apply), one reader that
// hands every message, ping, pong and the final close to its caller in
// the order they arrived, with a limit on the size of a message, one
// writer that sends queued messages in order, the timing of pings and the
// closing handshake. The wire protocol is gorilla/websocket's.
package wsconn
