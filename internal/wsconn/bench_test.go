package wsconn

import (
	"context"
	"testing"

	"github.com/usefullatency/usefullatency/internal/wsconn/wstest"
)

// BenchmarkEchoRoundTrip measures one message's round trip over loopback
// without a JavaScript runtime: Send, the server's echo, the Message
// event, the next Send.
func BenchmarkEchoRoundTrip(b *testing.B) {
	c, _, err := Dial(context.Background(), wstest.Server(b, nil), Config{})
	if err != nil {
		b.Fatal(err)
	}
	left := b.N
	b.ResetTimer()
	c.Send(true, []byte("x"))
	c.Run(func(ev Event) bool {
		if ev.Kind == Message {
			if left--; left > 0 {
				c.Send(true, []byte("x"))
			} else {
				c.Close(1000, "")
			}
		}
		return true
	})
}
