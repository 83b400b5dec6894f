// Package k6ws is the k6/ws JavaScript module, k6's legacy WebSocket API:
// ws.connect(url, params, callback) opens a connection, hands a Socket to
// the callback, then runs the socket's handlers and timers on the VU's
// goroutine until the connection is closed, blocking the iteration
// meanwhile. It dials and measures through k6/websockets' Dialer and
// Session, so both modules emit the same ws_* samples.
package k6ws

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6/ws"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newWS) }
