package e2e

import (
	"compress/gzip"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"net"
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

// featuresServer serves http/features.js: /gzip answers a gzip body and
// echoes the User-Agent in X-Seen-User-Agent, /upload answers the parts of
// a gzip-compressed multipart upload, /items/{id} names the item, /digest
// demands MD5 digest authentication of ada:s3cret.
func featuresServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("X-Seen-User-Agent", r.UserAgent())
		gz := gzip.NewWriter(w)
		_, _ = io.WriteString(gz, strings.Repeat("compressed ", 100))
		_ = gz.Close()
	})
	mux.HandleFunc("/upload", func(w http.ResponseWriter, r *http.Request) {
		zr, err := gzip.NewReader(r.Body)
		if err != nil || r.Header.Get("Content-Encoding") != "gzip" {
			http.Error(w, "want a gzip body", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(zr)
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		fh := r.MultipartForm.File["file"][0]
		f, _ := fh.Open()
		b, _ := io.ReadAll(f)
		fmt.Fprintf(w, "%s %s %s %s", fh.Filename, fh.Header.Get("Content-Type"), b, r.FormValue("note"))
	})
	mux.HandleFunc("/items/{id}", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "item %s", r.PathValue("id")) })
	mux.HandleFunc("/digest", digestHandler("ada", "s3cret"))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// digestHandler demands MD5 digest authentication (qop auth) of user and
// pass and answers "hello <user>".
func digestHandler(user, pass string) http.HandlerFunc {
	const realm, nonce = "e2e", "n0nce"
	h := func(parts ...string) string {
		sum := md5.Sum([]byte(strings.Join(parts, ":")))
		return hex.EncodeToString(sum[:])
	}
	return func(w http.ResponseWriter, r *http.Request) {
		p := map[string]string{}
		if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Digest "); ok {
			for _, kv := range strings.Split(auth, ", ") {
				k, v, _ := strings.Cut(kv, "=")
				p[k] = strings.Trim(v, `"`)
			}
		}
		want := h(h(user, realm, pass), nonce, p["nc"], p["cnonce"], "auth", h(r.Method, r.URL.RequestURI()))
		if p["response"] != want {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Digest realm="%s", qop="auth", nonce="%s"`, realm, nonce))
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprintf(w, "hello %s", p["username"])
	}
}

// TestHTTPFeatures runs a script that combines the hosts, blockHostnames
// and userAgent options, a gzip response, a compressed multipart upload,
// http.url names and digest authentication; its checks and thresholds
// decide the exit code.
func TestHTTPFeatures(t *testing.T) {
	t.Parallel()
	srv := featuresServer(t)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	out := filepath.Join(t.TempDir(), "summary.json")
	r := invocation{
		args: []string{"run", "-q", "--summary-export", out, script("http/features.js")},
		env:  []string{"PORT=" + port},
	}.run(t)
	r.wantCode(t, 0)
	exp := export(t, out)
	// Per iteration: gzip, upload, two items, the digest challenge and
	// its answer, the blocked request.
	if got := number(t, exp, "metrics", "http_reqs", "count"); got != 14 {
		t.Errorf("http_reqs = %v, want 14", got)
	}
	if passes := number(t, exp, "metrics", "checks", "passes"); passes != 14 {
		t.Errorf("checks passed = %v, want 14:\n%s", passes, r.stdout)
	}
}

// TestRequestFailedWarning checks that a request that got no response logs
// k6's warning, one per request, in logfmt as k6 writes it when stderr is
// not a terminal: msg="Request Failed" and the error as a field, quoted.
func TestRequestFailedWarning(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/gone"
	ln.Close() // nothing listens there now: the connection is refused
	r := invocation{args: []string{"run", "-q", "--no-summary", "--log-format", "logfmt", script("http/request_failed.js")},
		env: []string{"DEAD_URL=" + dead}}.run(t)
	r.wantCode(t, 0)
	want := `level=warning msg="Request Failed" error="Get \"` + dead + `\": `
	if n := strings.Count(r.stderr, want); n != 2 {
		t.Errorf("%d warnings %q, want one per request (2):\n%s", n, want, r.stderr)
	}
}
