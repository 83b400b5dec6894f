// Package k6websockets is the k6/websockets JavaScript module (also
// importable as k6/experimental/websockets): the browser's WebSocket class
// with k6's params, tags and metrics, its events run on the VU's event
// loop, so the call that opened a socket (an iteration, setup) ends only
// once the socket is closed. The connection itself is internal/wsconn's;
// this package turns JS values into it and its events back into JS, and
// also owns what k6/ws shares: the params, the dial over the VU's network
// stack and the ws_* samples.
package k6websockets

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6/websockets"

// ExperimentalName is the specifier of k6 v0.x, still importable.
const ExperimentalName = "k6/experimental/websockets"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newInstance) }
