package k6websockets_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// prelude is prepended to every test script: the module and an assertion
// that throws with its message.
const prelude = `import { WebSocket, Blob } from 'k6/websockets';
function eq(got, want, what) {
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(what + ': got ' + JSON.stringify(got) + ', want ' + JSON.stringify(want));
  }
}
`

// echoServer is a loopback WebSocket server whose handler reads commands:
// a text message "close:CODE:REASON" makes it close with that code,
// "ping" makes it ping, "big:N" sends a binary message of N bytes,
// "headers" sends the upgrade request's headers as JSON; any other
// message is echoed with its type. It offers the subprotocol "chat".
// /reject answers 403. upgraded, when not nil, is called at each upgrade.
func echoServer(t *testing.T, upgraded func()) string {
	t.Helper()
	up := websocket.Upgrader{Subprotocols: []string{"chat"}, EnableCompression: true}
	mux := http.NewServeMux()
	mux.HandleFunc("/reject", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "go away", http.StatusForbidden)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
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
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// command answers one message of the echo server.
func command(c *websocket.Conn, r *http.Request, kind int, msg string) error {
	switch {
	case kind == websocket.TextMessage && strings.HasPrefix(msg, "close:"):
		parts := strings.SplitN(msg, ":", 3)
		code, _ := strconv.Atoi(parts[1])
		return c.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(code, parts[2]))
	case kind == websocket.TextMessage && msg == "ping":
		return c.WriteMessage(websocket.PingMessage, []byte("srv"))
	case kind == websocket.TextMessage && strings.HasPrefix(msg, "big:"):
		n, _ := strconv.Atoi(strings.TrimPrefix(msg, "big:"))
		return c.WriteMessage(websocket.BinaryMessage, make([]byte, n))
	case kind == websocket.TextMessage && msg == "headers":
		b, _ := json.Marshal(r.Header)
		return c.WriteMessage(websocket.TextMessage, b)
	}
	return c.WriteMessage(kind, []byte(msg))
}

// result is what one iteration of a test script did.
type result struct {
	err     error
	samples []metrics.Sample
	log     string
}

// run runs the default function of prelude+src once in a fresh VU whose
// __ENV.WS is the echo server's URL, and returns its error and every
// sample pushed.
func run(t *testing.T, src string) result {
	t.Helper()
	return runCtx(context.Background(), t, src, nil)
}

// runCtx is run with the iteration's context and a hook of the server's
// upgrades.
func runCtx(ctx context.Context, t *testing.T, src string, upgraded func()) result {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.js")
	if err := os.WriteFile(path, []byte(prelude+src), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := js.NewBundle(path)
	if err != nil {
		t.Fatal(err)
	}
	reg := metrics.NewRegistry()
	log := &bytes.Buffer{}
	r := &modules.Run{
		Engine: metrics.NewEngine(reg), Registry: reg, Builtin: metrics.RegisterBuiltin(reg),
		Root: metrics.NewRootGroup(), Tags: metrics.Tags{}, Env: map[string]string{"WS": echoServer(t, upgraded)}, Log: log,
	}
	var (
		mu  sync.Mutex
		got []metrics.Sample
	)
	r.Engine.Subscribe(func(s []metrics.Sample) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, s...)
	})
	vu, err := b.NewVU(context.Background(), 1, r)
	if err != nil {
		return result{err: err, log: log.String()}
	}
	err = vu.RunIteration(ctx, js.Iteration{Exec: "default", Tags: metrics.Tags{"scenario": "default"}})
	mu.Lock()
	defer mu.Unlock()
	return result{err: err, samples: got, log: log.String()}
}

// mustRun is run that fails the test when the script threw.
func mustRun(t *testing.T, src string) result {
	t.Helper()
	r := run(t, src)
	if r.err != nil {
		t.Fatalf("script: %v\n%s", r.err, r.log)
	}
	return r
}

// of returns the samples of the metric called name.
func (r result) of(name string) []metrics.Sample {
	var out []metrics.Sample
	for _, s := range r.samples {
		if s.Metric.Name == name {
			out = append(out, s)
		}
	}
	return out
}
