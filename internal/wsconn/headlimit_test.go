package wsconn

import (
	"bufio"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
)

// hugeHeadServer is a raw TCP WebSocket server that answers every upgrade
// with status and pad bytes of X-Pad headers (1 KiB lines) before the
// blank line; with status 101 the answer is otherwise a valid upgrade.
func hugeHeadServer(t *testing.T, status int, pad int) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go answerHugeHead(c, status, pad)
		}
	}()
	return "ws://" + ln.Addr().String() + "/"
}

// answerHugeHead reads the upgrade request on c and writes the head.
func answerHugeHead(c net.Conn, status, pad int) {
	defer c.Close()
	req, err := http.ReadRequest(bufio.NewReader(c))
	if err != nil {
		return
	}
	sum := sha1.Sum([]byte(req.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	w := bufio.NewWriterSize(c, 64<<10)
	fmt.Fprintf(w, "HTTP/1.1 %d %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n",
		status, http.StatusText(status), base64.StdEncoding.EncodeToString(sum[:]))
	line := "X-Pad: " + strings.Repeat("a", 1024-len("X-Pad: \r\n")) + "\r\n"
	for ; pad >= len(line); pad -= len(line) {
		if _, err := w.WriteString(line); err != nil {
			return // the client gave up
		}
	}
	fmt.Fprintf(w, "X-Rest: %s\r\n\r\n", strings.Repeat("b", max(pad-len("X-Rest: \r\n"), 0)))
	if w.Flush() != nil {
		return
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	c.Read(make([]byte, 1)) // hold the connection until the client closes it
}

// A handshake whose response head is above maxHeaderSize fails with the
// limit's error, having read little more than the limit, whether the
// server accepts the upgrade or refuses it.
func TestHandshakeHeadAboveTheLimitFails(t *testing.T) {
	for _, tc := range []struct {
		name        string
		status, pad int
		max         int
	}{
		{"101 with 64 MiB of headers, default 10 MiB limit", http.StatusSwitchingProtocols, 64 << 20, 0},
		{"400 with 64 MiB of headers, default 10 MiB limit", http.StatusBadRequest, 64 << 20, 0},
		{"101 with a head 1 KiB over a 1 MiB limit", http.StatusSwitchingProtocols, 1<<20 + 1024, 1 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := hugeHeadServer(t, tc.status, tc.pad)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			c, hs, err := Dial(context.Background(), url, Config{MaxHeaderSize: tc.max, HandshakeTimeout: 30 * time.Second})
			runtime.ReadMemStats(&after)
			if c != nil {
				c.Abort()
			}
			if !errors.Is(err, httpsafe.ErrTooLarge) || hs != nil {
				t.Fatalf("err %v, handshake %v: want the maxHeaderSize limit", err, hs != nil)
			}
			limit := max(tc.max, httpsafe.DefaultMaxHeaderBytes)
			want := fmt.Sprintf("websocket: handshake: response too large: more than %s (maxHeaderSize)", httpsafe.FormatBytes(int64(limit)))
			if tc.max > 0 {
				want = "more than 1 MiB (maxHeaderSize)"
			}
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("err %q, want it to contain %q", err, want)
			}
			// Reading a 10 MiB head allocates a few times its size; the
			// 64 MiB head read whole allocates far more.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*uint64(limit) {
				t.Fatalf("the handshake allocated %d MiB for a %d MiB limit", alloc>>20, limit>>20)
			}
		})
	}
}

// A head just under the limit is accepted.
func TestHandshakeHeadUnderTheLimitSucceeds(t *testing.T) {
	url := hugeHeadServer(t, http.StatusSwitchingProtocols, 1<<20-2048)
	c, hs, err := Dial(context.Background(), url, Config{MaxHeaderSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Abort()
	if hs.Status != http.StatusSwitchingProtocols || len(hs.Header.Values("X-Pad")) < 1000 {
		t.Fatalf("status %d, %d X-Pad headers", hs.Status, len(hs.Header.Values("X-Pad")))
	}
}
