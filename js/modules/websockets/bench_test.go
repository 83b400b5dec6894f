package k6websockets_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/usefullatency/usefullatency/internal/wsconn/wstest"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/metrics"
)

// BenchmarkEchoRoundTrip measures one message's round trip through a real
// VU: send, the loopback server's echo, the message event on the VU's
// event loop, the next send from the handler.
func BenchmarkEchoRoundTrip(b *testing.B) {
	url := wstest.Server(b, nil)
	src := `import { WebSocket } from 'k6/websockets';
export default function () {
  const ws = new WebSocket('` + url + `');
  let left = ` + strconv.Itoa(b.N) + `;
  ws.onopen = () => ws.send('x');
  ws.onmessage = () => { if (--left > 0) ws.send('x'); else ws.close(); };
}`
	path := filepath.Join(b.TempDir(), "bench.js")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	vu := jstest.NewVUFile(b, path)
	b.ResetTimer()
	if err := vu.RunIteration(context.Background(), js.Iteration{Exec: "default", Tags: metrics.Tags{}}); err != nil {
		b.Fatal(err)
	}
}
