// Package wstest is the loopback WebSocket echo server of the tests of
// internal/wsconn, k6/websockets, k6/ws and the compatibility suite: a
// gorilla/websocket server whose commands make it close, ping, send a
// large message or show the upgrade request's headers.
package wstest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
)

// Handler is the echo server. Each text message is a command:
// "close:CODE:REASON" makes it close with that code and reason, "ping"
// makes it send a ping, "big:N" sends a binary message of N zero bytes,
// "headers" sends the upgrade request's headers as JSON; any other
// message is echoed with its type. It offers the subprotocol "chat" and
// permessage-deflate. Every path upgrades but /reject, which answers 403,
// and /hugehead, which answers 400 with 12 MiB of headers (above the
// 10 MiB limit of a handshake's head); the upgrade of /cookie sets the
// cookie from_ws=1.
// upgraded, when not nil, is called at each upgrade.
func Handler(upgraded func()) http.Handler {
	up := websocket.Upgrader{Subprotocols: []string{"chat"}, EnableCompression: true}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/reject") {
			http.Error(w, "go away", http.StatusForbidden)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/hugehead") {
			hugeHead(w)
			return
		}
		var header http.Header
		if strings.HasSuffix(r.URL.Path, "/cookie") {
			header = http.Header{"Set-Cookie": {"from_ws=1; Path=/"}}
		}
		c, err := up.Upgrade(w, r, header)
		if err != nil {
			return
		}
		defer c.Close()
		if upgraded != nil {
			upgraded()
		}
		for {
			kind, data, err := c.ReadMessage()
			if err != nil {
				return
			}
			if err := command(c, r, kind, string(data)); err != nil {
				return
			}
		}
	})
}

// command answers one message.
func command(c *websocket.Conn, r *http.Request, kind int, msg string) error {
	if kind != websocket.TextMessage {
		return c.WriteMessage(kind, []byte(msg))
	}
	switch {
	case strings.HasPrefix(msg, "close:"):
		parts := strings.SplitN(msg, ":", 3)
		code, _ := strconv.Atoi(parts[1])
		reason := ""
		if len(parts) == 3 {
			reason = parts[2]
		}
		return c.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason))
	case msg == "ping":
		return c.WriteMessage(websocket.PingMessage, []byte("server"))
	case strings.HasPrefix(msg, "big:"):
		n, _ := strconv.Atoi(strings.TrimPrefix(msg, "big:"))
		return c.WriteMessage(websocket.BinaryMessage, make([]byte, n))
	case msg == "headers":
		b, _ := json.Marshal(r.Header)
		return c.WriteMessage(websocket.TextMessage, b)
	}
	return c.WriteMessage(kind, []byte(msg))
}

// Server starts the echo server on 127.0.0.1 for the test and returns its
// ws:// URL.
func Server(t testing.TB, upgraded func()) string {
	t.Helper()
	srv := httptest.NewServer(Handler(upgraded))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// hugeHead answers 400 with 12 MiB of X-Pad headers, written raw.
func hugeHead(w http.ResponseWriter) {
	c, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	defer c.Close()
	buf.WriteString("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n")
	line := "X-Pad: " + strings.Repeat("a", 1015) + "\r\n"
	for range 12 << 10 {
		if _, err := buf.WriteString(line); err != nil {
			return // the client gave up
		}
	}
	buf.WriteString("\r\n")
	buf.Flush()
}
