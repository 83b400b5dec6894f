package k6websockets

import (
	"fmt"
	"unicode/utf8"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// define gives the WebSocket object its members: the read-only url,
// readyState, protocol, extensions and bufferedAmount, binaryType, the
// on… handler properties, send, close, ping, addEventListener and
// removeEventListener.
func (s *socket) define() {
	getters := map[string]func() any{
		"url":            func() any { return s.url },
		"readyState":     func() any { return s.state },
		"protocol":       func() any { return s.protocol },
		"extensions":     func() any { return s.extensions },
		"bufferedAmount": s.bufferedAmount,
	}
	for name, get := range getters {
		_ = s.obj.DefineAccessorProperty(name, s.rt.ToValue(get), nil, sobek.FLAG_FALSE, sobek.FLAG_TRUE)
	}
	_ = s.obj.DefineAccessorProperty("binaryType", s.rt.ToValue(func() string { return s.binaryType }),
		s.rt.ToValue(s.setBinaryType), sobek.FLAG_FALSE, sobek.FLAG_TRUE)
	for _, typ := range eventTypes {
		get := func() sobek.Value {
			if v := s.onValues[typ]; v != nil {
				return v
			}
			return sobek.Null()
		}
		set := func(v sobek.Value) { s.setHandler(typ, v) }
		_ = s.obj.DefineAccessorProperty("on"+typ, s.rt.ToValue(get), s.rt.ToValue(set), sobek.FLAG_FALSE, sobek.FLAG_TRUE)
	}
	_ = s.obj.Set("send", s.send)
	_ = s.obj.Set("close", s.close)
	_ = s.obj.Set("ping", s.ping)
	_ = s.obj.Set("addEventListener", func(typ string, fn sobek.Value) { s.handlers.add(typ, fn) })
	_ = s.obj.Set("removeEventListener", func(typ string, fn sobek.Value) { s.handlers.remove(typ, fn) })
	s.onValues = map[string]sobek.Value{}
}

// setHandler sets the on… handler of typ: a function, or anything else
// for none.
func (s *socket) setHandler(typ string, v sobek.Value) {
	if fn, ok := sobek.AssertFunction(v); ok {
		s.handlers.on[typ], s.onValues[typ] = fn, v
		return
	}
	delete(s.handlers.on, typ)
	delete(s.onValues, typ)
}

// setBinaryType sets binaryType; values other than "blob" and
// "arraybuffer" are ignored, as a browser ignores them.
func (s *socket) setBinaryType(v string) {
	if v == "blob" || v == "arraybuffer" {
		s.binaryType = v
	}
}

// bufferedAmount is the bytes sent with send() and not yet written.
func (s *socket) bufferedAmount() any {
	if s.session == nil {
		return 0
	}
	return s.session.Conn.Buffered()
}

// send is ws.send(data): a string is sent as a text message; an
// ArrayBuffer, a typed array, a DataView or a Blob as a binary one. It
// throws InvalidStateError unless the socket is open.
func (s *socket) send(data sobek.Value) {
	s.requireOpen("send")
	text, bytes := s.payload(data)
	if s.session.Conn.Send(text, bytes) {
		s.session.Sent()
	}
}

// payload reads what send() sends; anything that is not binary is
// converted to a string, as a browser converts it.
func (s *socket) payload(data sobek.Value) (text bool, b []byte) {
	if bl := s.m.blobOf(data); bl != nil {
		return false, bl.data
	}
	if !sobek.IsString(data) {
		if b, ok := modules.Bytes(s.rt, data); ok {
			return false, b
		}
	}
	return true, []byte(data.String())
}

// close is ws.close(code, reason): code 1000 by default, or one of
// 1001–1003, 1007–1014, 3000–4999; reason at most 123 bytes of UTF-8.
// Before the socket opened, it is closed as soon as it opens.
func (s *socket) close(codeV, reasonV sobek.Value) {
	code := 1000
	if !isNullish(codeV) {
		code = int(codeV.ToInteger())
		if !sendableCode(code) {
			panic(domError(s.rt, "InvalidAccessError", fmt.Sprintf("WebSocket.close: code %d can't be sent: use 1000, 3000–4999 or another code a close frame may carry", code)))
		}
	}
	reason := ""
	if !isNullish(reasonV) {
		reason = reasonV.String()
	}
	if len(reason) > 123 || !utf8.ValidString(reason) {
		panic(syntaxError(s.rt, "WebSocket.close: the reason is longer than 123 bytes of UTF-8"))
	}
	switch s.state {
	case connecting:
		s.state, s.closeCode, s.closeReason = closing, code, reason
	case open:
		s.state = closing
		s.session.Conn.Close(code, reason)
	}
}

// sendableCode reports whether a close frame may carry code (RFC 6455:
// 1004–1006 and 1015 are reserved, 1016–2999 unassigned).
func sendableCode(code int) bool {
	switch {
	case code >= 3000 && code <= 4999:
		return true
	case code < 1000 || code > 1014:
		return false
	}
	return code != 1004 && code != 1005 && code != 1006
}

// ping is ws.ping(): a ping frame; the pong fires a pong event and its
// round trip is a ws_ping sample. It throws InvalidStateError unless the
// socket is open.
func (s *socket) ping() {
	s.requireOpen("ping")
	s.session.Conn.Ping()
}

// requireOpen throws an InvalidStateError naming method unless the socket
// is OPEN, as k6 does for send() and ping() in any other state. (A
// browser's send() throws only while connecting and drops the data once
// closing; k6 throws then too, which is what ends a setInterval that
// pings a socket the server closed.)
func (s *socket) requireOpen(method string) {
	switch s.state {
	case open:
		return
	case connecting:
		panic(domError(s.rt, "InvalidStateError", "WebSocket."+method+": the socket is still connecting: "+method+" from onopen"))
	case closing:
		panic(domError(s.rt, "InvalidStateError", "WebSocket."+method+": the socket is closing"))
	}
	panic(domError(s.rt, "InvalidStateError", "WebSocket."+method+": the socket is closed"))
}

// domError returns an Error named like a DOMException (name).
func domError(rt *sobek.Runtime, name, msg string) *sobek.Object {
	e := rt.NewGoError(fmt.Errorf("%s", msg))
	_ = e.Set("name", name)
	return e
}

// syntaxError returns a SyntaxError DOMException-like Error.
func syntaxError(rt *sobek.Runtime, msg string) *sobek.Object {
	return domError(rt, "SyntaxError", msg)
}
