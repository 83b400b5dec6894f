package k6http_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
	"github.com/usefullatency/usefullatency/js/modules"
)

// landing redirects /start/<status> to target+"/land" and answers /land,
// counting what every request carried.
type landing struct {
	*httptest.Server

	mu     sync.Mutex
	target string
	got    []string // "METHOD path body" and the credential headers received
}

// newLanding starts a landing server, over TLS if secure.
func newLanding(t *testing.T, secure bool) *landing {
	l := &landing{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		line := fmt.Sprintf("%s %s %q", r.Method, r.URL.Path, body)
		for _, k := range append([]string{"X-Secret", "X-Keep", "Referer"}, httpsafe.CredentialHeaders...) {
			if r.Header.Get(k) != "" {
				line += " " + k
			}
		}
		l.mu.Lock()
		l.got = append(l.got, line)
		target := l.target
		l.mu.Unlock()
		if status, ok := strings.CutPrefix(r.URL.Path, "/start/"); ok {
			code, _ := strconv.Atoi(status)
			w.Header().Set("Location", target+"/land?token=q")
			w.WriteHeader(code)
			return
		}
		fmt.Fprint(w, "landed")
	})
	if secure {
		l.Server = httptest.NewTLSServer(h)
	} else {
		l.Server = httptest.NewServer(h)
	}
	l.redirectTo(l.URL)
	t.Cleanup(l.Close)
	return l
}

// redirectTo sets where /start/ redirects to.
func (l *landing) redirectTo(target string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.target = target
}

// received returns what the server recorded.
func (l *landing) received() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.got...)
}

// TestRedirectMatrix sends a POST with a body and credentials through
// 301, 302, 303, 307 and 308 to the same host, another host, and from
// https to http, and checks what each server received: the rules of the
// streaming probe (httpsafe.Policy).
func TestRedirectMatrix(t *testing.T) {
	creds := " " + strings.Join(httpsafe.CredentialHeaders, " ")
	for _, where := range []string{"same host", "other host", "https to http", "https to http allowed"} {
		for _, status := range []int{301, 302, 303, 307, 308} {
			t.Run(fmt.Sprintf("%s/%d", where, status), func(t *testing.T) {
				origin := newLanding(t, strings.HasPrefix(where, "https"))
				land := origin
				if where != "same host" {
					land = newLanding(t, false)
					origin.redirectTo(land.URL)
				}
				headers := `{'X-Secret': 's', 'X-Keep': 'k'`
				for _, k := range httpsafe.CredentialHeaders {
					headers += fmt.Sprintf(", '%s': 'v'", k)
				}
				headers += "}"
				r := runScript(t, fmt.Sprintf(`export default function () {
  const r = http.post(__ENV.URL, 'payload', {headers: %s, sensitiveHeaders: ['X-Secret'], allowInsecureRedirect: %v});
  console.log(r.status + ' ' + r.error_code + ' ' + r.error);
}`, headers, where == "https to http allowed"), map[string]string{"URL": fmt.Sprintf("%s/start/%d", origin.URL, status)},
					func(run *modules.Run) { run.InsecureSkipTLSVerify = true })
				if r.err != nil {
					t.Fatal(r.err)
				}
				start := fmt.Sprintf(`POST /start/%d "payload" X-Secret X-Keep`+creds, status)
				landed := ` /land ""`
				switch {
				case status == 307 || status == 308:
					landed = `POST /land "payload"`
				default:
					landed = "GET" + landed
				}
				if where == "same host" {
					landed += " X-Secret X-Keep" + creds
				} else {
					landed += " X-Keep"
				}
				want := []string{start, landed}
				if where != "same host" {
					if got := origin.received(); len(got) != 1 || got[0] != start {
						t.Errorf("origin received %q, want %q", got, start)
					}
					want = want[1:]
				}
				if where == "https to http" {
					want = nil
					if !strings.Contains(r.log, fmt.Sprintf("%d 1000 redirect refused: from https to http", status)) {
						t.Errorf("log %q, want the refusal", r.log)
					}
				}
				if got := land.received(); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("target received\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			})
		}
	}
}

// TestResponseLimits checks maxResponseSize (default and param) and the
// header limit: the response fails with a message naming the limit, and
// keeps its status.
func TestResponseLimits(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/headers" {
			for i := range 11 << 10 {
				w.Header().Add(fmt.Sprintf("X-Junk-%d", i), strings.Repeat("j", 1000))
			}
			return
		}
		chunk := []byte(strings.Repeat("b", 64<<10))
		for range 1200 { // 75 MiB, more than the default 64 MiB
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	mustRun(t, `export default function () {
  let r = http.get(__ENV.BASE + '/body', {maxResponseSize: '1MiB'});
  eq([r.status, r.error_code, r.error, r.body], [200, 1000, 'response too large: more than 1 MiB (maxResponseSize)', ''], '1MiB');
  r = http.get(__ENV.BASE + '/body');
  eq([r.status, r.error], [200, 'response too large: more than 64 MiB (maxResponseSize)'], 'default');
  r = http.get(__ENV.BASE + '/headers');
  eq([r.status, r.error_code, r.error.includes('headers exceeded')], [0, 1000, true], 'headers');
}`, map[string]string{"BASE": srv.URL})
}
