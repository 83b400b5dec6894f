package k6http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// prelude is prepended to every test script: the module and an assertion
// that throws with its message.
const prelude = `import http from 'k6/http';
function eq(got, want, what) {
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(what + ': got ' + JSON.stringify(got) + ', want ' + JSON.stringify(want));
  }
}
`

// result is what one iteration of a test script did.
type result struct {
	err     error
	samples []metrics.Sample
	log     string
}

// runScript runs the default function of prelude+src once in a fresh VU
// whose __ENV holds env, and returns its error and every sample pushed.
// opts adjust the run before the VU is created.
func runScript(t *testing.T, src string, env map[string]string, opts ...func(*modules.Run)) result {
	t.Helper()
	return runIterations(t, 1, src, env, opts...)
}

// runIterations is runScript for n iterations of the same VU; it stops at
// the first that throws.
func runIterations(t *testing.T, iterations int, src string, env map[string]string, opts ...func(*modules.Run)) result {
	t.Helper()
	return runIterationsCtx(context.Background(), t, iterations, src, env, opts...)
}

// runIterationsCtx is runIterations with the iterations' context.
func runIterationsCtx(ctx context.Context, t *testing.T, iterations int, src string, env map[string]string, opts ...func(*modules.Run)) result {
	t.Helper()
	r := jstest.Run(ctx, t, prelude+src, iterations, append([]func(*modules.Run){func(r *modules.Run) { r.Env = env }}, opts...)...)
	return result{err: r.Err, samples: r.Samples, log: r.Log}
}

// mustRun is runScript that fails the test when the script threw.
func mustRun(t *testing.T, src string, env map[string]string, opts ...func(*modules.Run)) result {
	t.Helper()
	r := runScript(t, src, env, opts...)
	if r.err != nil {
		t.Fatalf("script: %v\n%s", r.err, r.log)
	}
	return r
}

// of returns the samples of the metric called name.
func (r result) of(name string) []metrics.Sample { return jstest.Of(r.samples, name) }

// newServer starts the test server: /echo answers the request as JSON,
// /status/N answers N, /redirect/N redirects N times (then 200 "done"),
// /hang answers only when the client gives up, /json answers a document,
// /bytes answers the bytes 0…255, /multi a repeated header, /host the
// Host header.
func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(testMux())
	t.Cleanup(srv.Close)
	return srv
}

// newTLSServer starts the test server over TLS, with a self-signed
// certificate, speaking HTTP/2.
func newTLSServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(testMux())
	srv.EnableHTTP2 = true
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

// testMux is the handler of the test servers. /barrier/N answers once N
// requests to it are in flight together (504 if that does not happen within
// 5 s); /inflight reports the most requests it had in flight at once.
func testMux() *http.ServeMux {
	mux := http.NewServeMux()
	var (
		mu                sync.Mutex
		arrived           = map[string]chan struct{}{}
		counts            = map[string]int{}
		inflight, maxSeen int
	)
	mux.HandleFunc("/barrier/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		group := r.URL.Query().Get("g")
		mu.Lock()
		if arrived[group] == nil {
			arrived[group] = make(chan struct{})
		}
		ch := arrived[group]
		counts[group]++
		if counts[group] == n {
			close(ch)
		}
		mu.Unlock()
		select {
		case <-ch:
			fmt.Fprint(w, r.URL.Query().Get("id"))
		case <-time.After(5 * time.Second):
			w.WriteHeader(http.StatusGatewayTimeout)
		}
	})
	mux.HandleFunc("/setcookie", func(w http.ResponseWriter, r *http.Request) {
		for k, v := range r.URL.Query() {
			http.SetCookie(w, &http.Cookie{Name: k, Value: v[0], Path: "/"})
		}
	})
	mux.HandleFunc("/cookies", func(w http.ResponseWriter, r *http.Request) {
		got := map[string]string{}
		for _, c := range r.Cookies() {
			got[c.Name] = c.Value
		}
		_ = json.NewEncoder(w).Encode(got)
	})
	mux.HandleFunc("/cookieredirect", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "hop", Value: "1", Path: "/"})
		http.Redirect(w, r, "/cookies", http.StatusFound)
	})
	mux.HandleFunc("/inflight", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inflight++
		maxSeen = max(maxSeen, inflight)
		mu.Unlock()
		runtime.Gosched()
		mu.Lock()
		inflight--
		fmt.Fprint(w, maxSeen)
		mu.Unlock()
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"method": r.Method, "body": string(body), "headers": r.Header, "query": r.URL.RawQuery,
		})
	})
	mux.HandleFunc("/status/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		w.WriteHeader(n)
	})
	mux.HandleFunc("/redirect/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n == 0 {
			fmt.Fprintf(w, "done after %s", r.Method)
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/redirect/%d", n-1), http.StatusFound)
	})
	mux.HandleFunc("/redirect307", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/echo", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"user":{"name":"ada","langs":["go","js"]},"items":[{"id":1},{"id":2}],"n":null}`)
	})
	mux.HandleFunc("/notjson", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html>") })
	mux.HandleFunc("/bytes", func(w http.ResponseWriter, r *http.Request) {
		b := make([]byte, 256)
		for i := range b {
			b[i] = byte(i)
		}
		_, _ = w.Write(b)
	})
	mux.HandleFunc("/host", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, r.Host) })
	mux.HandleFunc("/multi", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("x-multi", "a")
		w.Header().Add("x-multi", "b")
		fmt.Fprint(w, "ok")
	})
	return mux
}

// closedURL returns the URL of a port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr + "/"
}
