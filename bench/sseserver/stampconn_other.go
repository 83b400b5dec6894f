//go:build !linux

package main

import (
	"context"
	"net"
)

// listenStamped returns ln: kernel stamps need Linux.
func listenStamped(ln net.Listener) net.Listener { return ln }

// connContext leaves ctx as it is: no connection is stamped.
func connContext(ctx context.Context, _ net.Conn) context.Context { return ctx }

// stampConn stands in for Linux's stamping connection; there is none.
type stampConn struct{}

// requestConn returns nil: no connection is stamped.
func requestConn(context.Context) *stampConn { return nil }

func (*stampConn) requestRX() int64 { return 0 }
func (*stampConn) beginTX() bool    { return false }
func (*stampConn) endTX() int64     { return 0 }
