package api

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/usefullatency/usefullatency/internal/eventually"
	"github.com/usefullatency/usefullatency/internal/syncbuf"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/runner"
)

// send sends a request with the headers of hdr ("Host" sets the Host
// header) and returns the status, the decoded JSON answer (nil when the
// body is empty or not JSON), the raw body and the answer's headers.
func send(t *testing.T, method, url, body string, hdr map[string]string) (int, any, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	_ = json.Unmarshal(raw, &v)
	return resp.StatusCode, v, string(raw), resp.Header
}

// guardedRun is api.js waiting paused behind Listen on a loopback port
// with cfg; addr is the port's host:port and log what the API logged.
type guardedRun struct {
	*liveRun
	addr string
	log  *syncbuf.Buffer
}

// startGuarded starts api.js paused, with edit applied to its options,
// behind Listen("127.0.0.1:0") with cfg (its Log set to the run's log),
// and waits until it is paused.
func startGuarded(t *testing.T, cfg Config, edit func(*options.Options)) *guardedRun {
	t.Helper()
	g := &guardedRun{log: &syncbuf.Buffer{}}
	cfg.Log = g.log
	g.liveRun = startRunOn(t, map[string]string{}, func(o *options.Options) {
		o.Paused = true
		edit(o)
	}, func(ctl *runner.Control) string {
		srv, err := Listen("127.0.0.1:0", ctl, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = srv.Close() })
		g.addr = srv.Addr()
		return "http://" + g.addr
	})
	auth := map[string]string{"Authorization": "Bearer " + cfg.Token}
	eventually.True(t, "the run waits paused", func() bool {
		_, v, _, _ := send(t, http.MethodGet, g.base+"/v1/status", "", auth)
		return at(v, "data", "attributes", "status") == float64(runner.StatusPausedBeforeRun)
	})
	return g
}

// stop ends the paused run through the API (with hdr's headers) and waits
// for it.
func (g *guardedRun) stop(t *testing.T, hdr map[string]string) {
	t.Helper()
	code, v, _, _ := send(t, http.MethodPatch, g.base+"/v1/status", `{"data":{"attributes":{"stopped":true}}}`, hdr)
	if code != http.StatusOK {
		t.Fatalf("stopping the run: %d %v", code, v)
	}
	g.wait(t)
}

// wantRefused fails unless the answer is a JSON:API error document of
// status want.
func wantRefused(t *testing.T, what string, code int, v any, want int) {
	t.Helper()
	if code != want {
		t.Errorf("%s: %d %v, want %d", what, code, v, want)
		return
	}
	wantShape(t, what, v, errorShape)
	if s := at(v, "errors", 0, "status"); s != strconv.Itoa(want) {
		t.Errorf("%s: error status %v, want %d", what, s, want)
	}
}

// A web page the operator opens cannot steer the run: 50 cross-origin
// form posts to /v1/teardown (k6 ran teardown() 50 times) and a PATCH, a
// PUT of setup data or a sandboxed page's post are refused with 403, and
// teardown() never runs; each refusal is logged, at most 20 lines and one
// saying the rest are not. A request of the API's own origin passes.
func TestWebPagesCannotSteerTheRun(t *testing.T) {
	t.Parallel()
	g := startGuarded(t, Config{}, func(*options.Options) {})
	page := map[string]string{"Origin": "http://evil.example", "Content-Type": "text/plain"}
	for range 50 {
		code, v, _, _ := send(t, http.MethodPost, g.base+"/v1/teardown", "x=1", page)
		wantRefused(t, "a cross-origin POST /v1/teardown", code, v, http.StatusForbidden)
	}
	for _, tc := range []struct {
		name, method, path, body string
		hdr                      map[string]string
	}{
		{"PATCH /v1/status from a page", http.MethodPatch, "/v1/status", starterBody, page},
		{"PUT /v1/setup from a page", http.MethodPut, "/v1/setup", `{"token":"forged"}`, page},
		{"GET /v1/setup from a page", http.MethodGet, "/v1/setup", "", page},
		{"a sandboxed page (Origin null)", http.MethodPost, "/v1/teardown", "", map[string]string{"Origin": "null"}},
		{"Origin of another port", http.MethodPost, "/v1/teardown", "", map[string]string{"Origin": "http://127.0.0.1:1"}},
		{"Origin https", http.MethodPost, "/v1/teardown", "", map[string]string{"Origin": "https://" + g.addr}},
		{"Sec-Fetch-Site cross-site", http.MethodPost, "/v1/teardown", "", map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{"Sec-Fetch-Site same-site", http.MethodPost, "/v1/setup", "", map[string]string{"Sec-Fetch-Site": "same-site"}},
	} {
		code, v, _, _ := send(t, tc.method, g.base+tc.path, tc.body, tc.hdr)
		wantRefused(t, tc.name, code, v, http.StatusForbidden)
	}
	st := get(t, g.base+"/v1/status")
	if at(st, "data", "attributes", "status") != float64(runner.StatusPausedBeforeRun) {
		t.Errorf("a page's PATCH changed the run: %v", st)
	}
	if v := get(t, g.base+"/v1/setup"); at(v, "data", "attributes", "data") != nil {
		t.Errorf("a page's PUT set the setup data: %v", v)
	}
	if code, v := call(t, http.MethodGet, g.base+"/v1/metrics/teardowns", ""); code != http.StatusNotFound {
		t.Errorf("teardown() ran on a page's request: %d %v", code, v)
	}
	own := map[string]string{"Origin": "http://" + g.addr, "Sec-Fetch-Site": "same-origin"}
	if code, v, _, _ := send(t, http.MethodPost, g.base+"/v1/teardown", "", own); code != http.StatusOK {
		t.Errorf("POST /v1/teardown of the API's own origin: %d %v", code, v)
	}
	if n := at(get(t, g.base+"/v1/metrics/teardowns"), "data", "attributes", "sample", "count"); n != 1.0 {
		t.Errorf("teardowns = %v, want 1", n)
	}
	g.stop(t, nil)
	lines := strings.Split(strings.TrimSpace(g.log.String()), "\n")
	if len(lines) != maxRefusalLines+1 || !strings.Contains(lines[0], `refused POST "/v1/teardown"`) ||
		!strings.Contains(lines[0], "http://evil.example") || !strings.Contains(lines[maxRefusalLines], "not logged") {
		t.Errorf("the log has %d lines, want %d refusals and one saying the rest are not logged:\n%s",
			len(lines), maxRefusalLines, g.log.String())
	}
}

// A page whose name the attacker points at 127.0.0.1 (DNS rebinding) sends
// its own name as Host: the API answers 403 without the setup data. The
// API's own address, localhost and the loopback IPs on its port pass.
func TestHostMustNameTheAPI(t *testing.T) {
	t.Parallel()
	g := startGuarded(t, Config{}, func(*options.Options) {})
	code, v, _, _ := send(t, http.MethodPut, g.base+"/v1/setup", `{"login":"s3cret-session"}`, nil)
	if code != http.StatusOK {
		t.Fatalf("PUT /v1/setup: %d %v", code, v)
	}
	_, port, _ := net.SplitHostPort(g.addr)
	for _, host := range []string{"evil.example:" + port, "evil.example", "127.0.0.1:1", "localhost", "localhost.evil.example:" + port} {
		code, v, raw, _ := send(t, http.MethodGet, g.base+"/v1/setup", "", map[string]string{"Host": host})
		wantRefused(t, "Host "+host, code, v, http.StatusForbidden)
		if strings.Contains(raw, "s3cret-session") {
			t.Errorf("Host %q: the answer holds the setup data: %s", host, raw)
		}
	}
	for _, host := range []string{g.addr, "localhost:" + port, "LocalHost.:" + port, "127.0.0.2:" + port, "[::1]:" + port} {
		if code, v, raw, _ := send(t, http.MethodGet, g.base+"/v1/setup", "", map[string]string{"Host": host}); code != http.StatusOK || !strings.Contains(raw, "s3cret-session") {
			t.Errorf("Host %q: %d %v, want the setup data", host, code, v)
		}
	}
	g.stop(t, nil)
}

// The Host rules by listening address: any Host on an unspecified address;
// on a given IP that IP and port; the host name --address gave; on
// loopback also localhost and every loopback IP; port 80 when Host has
// none.
func TestHostRules(t *testing.T) {
	t.Parallel()
	tcp := func(ip string, port int) net.Addr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: port} }
	for _, tc := range []struct {
		addr   string
		bound  net.Addr
		ok, no []string
	}{
		{"0.0.0.0:6565", tcp("0.0.0.0", 6565), []string{"evil.example:1", "10.0.0.7:6565", "runner-0"}, nil},
		{":6565", tcp("::", 6565), []string{"evil.example:6565"}, nil},
		{"10.1.2.3:6565", tcp("10.1.2.3", 6565), []string{"10.1.2.3:6565"},
			[]string{"localhost:6565", "127.0.0.1:6565", "evil.example:6565", "10.1.2.3", "10.1.2.4:6565"}},
		{"runner-1.local:6565", tcp("10.1.2.3", 6565), []string{"Runner-1.Local:6565", "runner-1.local.:6565", "10.1.2.3:6565"},
			[]string{"runner-2.local:6565", "localhost:6565"}},
		{"localhost:80", tcp("127.0.0.1", 80), []string{"localhost", "127.0.0.1", "127.9.9.9:80", "[::1]:80"},
			[]string{"localhost:8080", "evil.example"}},
		{"[::1]:6565", tcp("::1", 6565), []string{"[::1]:6565", "127.0.0.1:6565", "localhost:6565"}, []string{"[::2]:6565"}},
	} {
		a := newAccess(tc.addr, tc.bound, "", nil)
		for _, h := range tc.ok {
			if err := a.checkHost(h); err != nil {
				t.Errorf("listening on %s: Host %q refused: %v", tc.addr, h, err)
			}
		}
		for _, h := range tc.no {
			if err := a.checkHost(h); err == nil {
				t.Errorf("listening on %s: Host %q accepted", tc.addr, h)
			}
		}
	}
}

// With a token, every request but GET /ping needs Authorization: Bearer
// <token>: without it, with another token or another scheme the answer is
// 401 with WWW-Authenticate, and the token shows in no answer and no log
// line.
func TestTokenRequired(t *testing.T) {
	t.Parallel()
	const token = "s3cret-api-token"
	g := startGuarded(t, Config{Token: token}, func(*options.Options) {})
	bearer := map[string]string{"Authorization": "Bearer " + token}
	for _, tc := range []struct {
		name, method, path, auth string
	}{
		{"no token", http.MethodGet, "/v1/status", ""},
		{"another token", http.MethodGet, "/v1/setup", "Bearer " + token + "x"},
		{"a prefix of the token", http.MethodGet, "/v1/setup", "Bearer " + token[:5]},
		{"Basic", http.MethodGet, "/v1/status", "Basic " + token},
		{"bare token", http.MethodGet, "/v1/status", token},
		{"teardown without token", http.MethodPost, "/v1/teardown", ""},
		{"paths outside /v1/", http.MethodGet, "/", ""},
		{"POST /ping", http.MethodPost, "/ping", ""},
	} {
		hdr := map[string]string{}
		if tc.auth != "" {
			hdr["Authorization"] = tc.auth
		}
		code, v, raw, h := send(t, tc.method, g.base+tc.path, "", hdr)
		wantRefused(t, tc.name, code, v, http.StatusUnauthorized)
		if !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: WWW-Authenticate = %q", tc.name, h.Get("WWW-Authenticate"))
		}
		if strings.Contains(raw, token) {
			t.Errorf("%s: the answer holds the token: %s", tc.name, raw)
		}
	}
	if code, _, raw, _ := send(t, http.MethodGet, g.base+"/ping", "", nil); code != http.StatusOK || raw != "ok" {
		t.Errorf("GET /ping without a token: %d %q, want ok", code, raw)
	}
	for _, auth := range []string{"Bearer " + token, "bearer " + token} {
		if code, v, _, _ := send(t, http.MethodGet, g.base+"/v1/status", "", map[string]string{"Authorization": auth}); code != http.StatusOK {
			t.Errorf("GET /v1/status with %q: %d %v", auth, code, v)
		}
	}
	if code, v, _, _ := send(t, http.MethodPatch, g.base+"/v1/status", starterBody, bearer); code != http.StatusOK {
		t.Fatalf("starter PATCH with the token: %d %v", code, v)
	}
	if c := g.wait(t); c != runner.ExitOK {
		t.Errorf("exit %d", c)
	}
	if strings.Contains(g.log.String(), token) {
		t.Errorf("the log holds the token:\n%s", g.log.String())
	}
}

// POST /v1/setup and POST /v1/teardown run their function once per run:
// of 50 teardown posts at once, one runs teardown() and 49 are answered
// 409; a second setup post is 409 too.
func TestSetupAndTeardownRunOnce(t *testing.T) {
	t.Parallel()
	g := startGuarded(t, Config{}, func(o *options.Options) { o.NoSetup, o.NoTeardown = true, true })
	codes := make(chan int, 50)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			code, _ := call(t, http.MethodPost, g.base+"/v1/teardown", "")
			codes <- code
		})
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	if count[http.StatusOK] != 1 || count[http.StatusConflict] != 49 {
		t.Errorf("50 POST /v1/teardown answered %v, want one 200 and 49 409", count)
	}
	if n := at(get(t, g.base+"/v1/metrics/teardowns"), "data", "attributes", "sample", "count"); n != 1.0 {
		t.Errorf("teardown() ran %v times, want 1", n)
	}
	if code, v := call(t, http.MethodPost, g.base+"/v1/setup", ""); code != http.StatusOK || at(v, "data", "attributes", "data", "token") != "from-setup" {
		t.Errorf("first POST /v1/setup: %d %v", code, v)
	}
	code, v := call(t, http.MethodPost, g.base+"/v1/setup", "")
	wantRefused(t, "second POST /v1/setup", code, v, http.StatusConflict)
	g.stop(t, nil)
}

// Listening beyond loopback without a token gives one warning; on
// loopback or with a token, none.
func TestExposureWarning(t *testing.T) {
	t.Parallel()
	tcp := func(ip string) net.Addr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: 6565} }
	for _, tc := range []struct {
		bound net.Addr
		token string
		warn  bool
	}{
		{tcp("0.0.0.0"), "", true},
		{tcp("::"), "", true},
		{tcp("10.1.2.3"), "", true},
		{tcp("0.0.0.0"), "t0ken", false},
		{tcp("127.0.0.1"), "", false},
		{tcp("::1"), "", false},
	} {
		w := newAccess("x:6565", tc.bound, tc.token, nil).warnings(tc.bound.String())
		if got := len(w) == 1 && strings.Contains(w[0], "K6_API_TOKEN") && strings.Contains(w[0], tc.bound.String()); got != tc.warn || len(w) > 1 {
			t.Errorf("listening on %s with token %q: warnings %q, want one: %v", tc.bound, tc.token, w, tc.warn)
		}
	}
}
