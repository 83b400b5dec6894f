package e2e

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestProbeSendsURLCredentialsOnEveryTransport streams from a URL carrying
// user:password@ with the probe on the reactor and on net/http: the
// server receives the same Basic Authorization header from both, and the
// password is in no log line, sample or summary.
func TestProbeSendsURLCredentialsOnEveryTransport(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: ok\n\n")
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	writeProject(t, dir, "", map[string]string{"main.js": `
import usefulsse from 'k6/x/usefulsse';
export const options = { iterations: 1, thresholds: { usefulsse_failed: ['rate==0'] } };
export default function () {
  const res = usefulsse.get(__ENV.TARGET + '/stream', { dialect: 'raw' });
  if (res.text !== 'ok') throw new Error('status ' + res.status + ': ' + res.error);
}`})
	target := strings.Replace(srv.URL, "http://", "http://dora:pw-s3cret@", 1)
	for _, transport := range []string{"reactor", "nethttp"} {
		out := filepath.Join(dir, transport+".json")
		r := invocation{args: []string{"run", "--probe-transport", transport, "-o", "json=" + out, "main.js"},
			env: []string{"TARGET=" + target}, dir: dir}.run(t)
		r.wantCode(t, 0)
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for where, text := range map[string]string{"stdout": r.stdout, "stderr": r.stderr, "json": string(b)} {
			if strings.Contains(text, "s3cret") {
				t.Errorf("%s: %s holds the password", transport, where)
			}
		}
	}
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte("dora:pw-s3cret"))
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || got[0] != want || got[1] != want {
		t.Fatalf("the server received Authorization %q (reactor, then net/http), want %q twice", got, want)
	}
}
