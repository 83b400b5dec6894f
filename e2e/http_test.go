package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// httpServer serves http/thresholds.js: /old redirects to /new, /slow
// answers the posted form after 150 ms, /login sets a session cookie that
// /me answers with, anything else is 404.
func httpServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/new", http.StatusFound) })
	mux.HandleFunc("/new", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "home") })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		time.Sleep(150 * time.Millisecond) // the latency under test, not synchronisation
		_, _ = io.WriteString(w, `{"form":"`+string(body)+`"}`)
	})
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: r.FormValue("user"), Path: "/"})
	})
	mux.HandleFunc("/me", func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie("session"); err == nil {
			_, _ = io.WriteString(w, c.Value)
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestHTTPScript runs a k6 HTTP script through the binary: thresholds on
// http_req_duration{name:…}, on the hop count and on failures decide the
// exit code, and the checks pass.
func TestHTTPScript(t *testing.T) {
	t.Parallel()
	srv := httpServer(t)
	tests := []struct {
		name, thresholds string
		wantCode         int
	}{
		{"passing", `{"http_req_duration{name:slow}":["min>=150"],"http_reqs":["count==24"],` +
			`"http_reqs{name:home}":["count==6"],"http_req_failed":["rate==0.125"],"checks":["rate==1"]}`, 0},
		{"failing duration", `{"http_req_duration{name:slow}":["max<100"]}`, 99},
		{"failing failures", `{"http_req_failed":["rate<0.1"]}`, 99},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "summary.json")
			r := invocation{
				args: []string{"run", "-q", "--summary-export", out, script("http/thresholds.js")},
				env:  []string{"BASE=" + srv.URL, "THRESHOLDS=" + tt.thresholds},
			}.run(t)
			r.wantCode(t, tt.wantCode)
			exp := export(t, out)
			if got := number(t, exp, "metrics", "http_reqs", "count"); got != 24 {
				t.Errorf("http_reqs = %v, want 24 (8 per iteration, the redirect hop included)", got)
			}
			if fails, passes := number(t, exp, "metrics", "checks", "fails"), number(t, exp, "metrics", "checks", "passes"); fails != 0 || passes != 18 {
				t.Errorf("checks: %v passed, %v failed, want 18 passed (6 per iteration):\n%s", passes, fails, r.stdout)
			}
			if !strings.Contains(r.stdout, "http_req_duration") || !strings.Contains(r.stdout, "expected_response:true") {
				t.Errorf("the summary lacks http_req_duration and its expected_response:true submetric:\n%s", r.stdout)
			}
		})
	}
}

// TestHTTPMaxRedirectsOption checks that the maxRedirects option reaches
// k6/http from each layer: the script, the environment and the flag.
func TestHTTPMaxRedirectsOption(t *testing.T) {
	t.Parallel()
	srv := httpServer(t)
	tests := []struct {
		name string
		args []string
		env  []string
		want string
	}{
		{"default follows", nil, nil, "200"},
		{"script option", nil, []string{"SCRIPT_MAX_REDIRECTS=0"}, "302"},
		{"environment", nil, []string{"K6_MAX_REDIRECTS=0"}, "302"},
		{"flag", []string{"--max-redirects", "0"}, nil, "302"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"run", "-q"}, tt.args...), script("http/maxredirects.js"))
			env := append([]string{"BASE=" + srv.URL, "WANT=" + tt.want}, tt.env...)
			r := invocation{args: args, env: env}.run(t)
			r.wantCode(t, 0)
		})
	}
}
