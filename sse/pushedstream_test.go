package sse

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// chunked frames body as one chunk of a chunked response body.
func chunked(body string) string { return fmt.Sprintf("%x\r\n%s\r\n", len(body), body) }

// TestPushedStreamsAgree reads bodies the reactor pushes to the stream as
// they arrive and the same bodies through net/http, and requires the same
// outcome, message included (the bytes received aside where the body
// failed or was drained): malformed and truncated framings, an error
// event, limits on an event and on the body, a terminal event followed by
// more than the drain takes.
func TestPushedStreamsAgree(t *testing.T) {
	needReactor(t)
	head := "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
	text := textChunk("a")
	cases := []struct {
		name, answer string
		req          Request
		code         string
	}{
		{"chunked", head + "Transfer-Encoding: chunked\r\n\r\n" + chunked(text) + chunked(doneChunk) + "0\r\n\r\n", Request{}, ""},
		{"clean end", head + "Transfer-Encoding: chunked\r\n\r\n" + chunked(text) + "0\r\n\r\n", Request{}, ""},
		{"malformed chunk", head + "Transfer-Encoding: chunked\r\n\r\n" + chunked(text) + "zz\r\n", Request{}, CodeReset},
		{"bad chunk end", head + "Transfer-Encoding: chunked\r\n\r\n" + "3\r\nabcXY", Request{}, CodeReset},
		{"truncated", head + fmt.Sprintf("Content-Length: %d\r\nConnection: close\r\n\r\n", len(text)+40) + text, Request{}, CodeReset},
		{"error event", head + "Transfer-Encoding: chunked\r\n\r\n" + chunked(text) + chunked("event: error\ndata: {\"error\":{\"message\":\"boom\"}}\n\n"), Request{}, CodeStreamError},
		{"event too large", head + "Transfer-Encoding: chunked\r\n\r\n" + chunked(text) + chunked("data: "+strings.Repeat("x", 300)+"\n\n"), Request{MaxEventSize: 200}, CodeEventTooLarge},
		{"body too large", head + "Transfer-Encoding: chunked\r\n\r\n" + chunked(text) + chunked(text) + chunked(doneChunk), Request{MaxResponseSize: int64(len(text)) + 10}, CodeTooLarge},
		{"long drain", head + "Transfer-Encoding: chunked\r\n\r\n" + chunked(text) + chunked(doneChunk) + strings.Repeat(chunked(": "+strings.Repeat("p", 4000)+"\n"), 80), Request{}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url, _ := rawServerConns(t, func(_ int, c net.Conn, r *bufio.Reader) {
				for {
					req, err := http.ReadRequest(r)
					if err != nil {
						return
					}
					_, _ = io.Copy(io.Discard, req.Body)
					if _, err := io.WriteString(c, tc.answer); err != nil || strings.Contains(tc.answer, "Connection: close") {
						return
					}
				}
			})
			var got [2]*Result
			var pushed *Client
			for i, only := range []bool{false, true} {
				req := tc.req
				req.URL, req.Dialect = url, DialectOpenAI
				c := NewClient(ClientOptions{NetHTTPOnly: only})
				got[i] = c.Do(context.Background(), &req)
				if i == 0 {
					pushed = c
				}
			}
			if got[0].ErrorCode != tc.code || got[0].Error != got[1].Error {
				t.Errorf("pushed: %q %q; net/http: %q %q; want code %q", got[0].ErrorCode, got[0].Error, got[1].ErrorCode, got[1].Error, tc.code)
			}
			if tc.code != "" || tc.name == "long drain" {
				// The pushed stream counts every byte that arrived; net/http's
				// reader only those the parser or the drain asked for.
				got[0].BytesReceived, got[1].BytesReceived = 0, 0
			}
			agree(t, got[0], got[1])
			switch tc.name {
			case "chunked":
				eventually.True(t, "the connection goes back to the pool", func() bool { return idleWire(pushed) == 1 })
			case "long drain":
				// Drained past drainLimit: closed, not pooled.
				eventually.True(t, "the drained connection is closed", func() bool { return pushed.wire.Open() == 0 })
				if idleWire(pushed) != 0 {
					t.Errorf("the drained connection was pooled")
				}
			}
		})
	}
}
