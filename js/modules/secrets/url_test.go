package k6secrets

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// secretServer serves /secrets/{key}: with status 500 for the first
// failures requests of each key, then handler's answer; it counts the
// requests.
type secretServer struct {
	*httptest.Server
	requests atomic.Int64
}

func newSecretServer(t *testing.T, failures int64, handler http.HandlerFunc) *secretServer {
	t.Helper()
	s := &secretServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n := s.requests.Add(1); n <= failures {
			http.Error(w, "try again", http.StatusInternalServerError)
			return
		}
		handler(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func TestURLSource(t *testing.T) {
	srv := newSecretServer(t, 0, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer t0k" {
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
		key := strings.TrimPrefix(r.URL.Path, "/secrets/")
		switch key {
		case "json":
			fmt.Fprint(w, `{"data":{"value":"from-json","n":1}}`)
		case "missing":
			http.NotFound(w, r)
		case "big":
			fmt.Fprint(w, strings.Repeat("x", maxSecretSize+1))
		default:
			fmt.Fprint(w, "value-of-"+key)
		}
	})
	tmpl := srv.URL + "/secrets/{key}"
	for _, c := range []struct {
		name, config, key, want string
	}{
		{"whole body", "urlTemplate=" + tmpl + ",headers.Authorization=Bearer t0k", "token", "value-of-token"},
		{"response path", "urlTemplate=" + tmpl + ",headers.Authorization=Bearer t0k,responsePath=data.value", "json", "from-json"},
		{"not a string", "urlTemplate=" + tmpl + ",headers.Authorization=Bearer t0k,responsePath=data.n", "json",
			`!the value at path "data.n" is not a string (Number)`},
		{"no such path", "urlTemplate=" + tmpl + ",headers.Authorization=Bearer t0k,responsePath=data.x", "json",
			`!path "data.x" not found in the answer`},
		{"404", "urlTemplate=" + tmpl + ",headers.Authorization=Bearer t0k", "missing", "!status code 404: failed to get secret"},
		{"no header", "urlTemplate=" + tmpl, "token", "!status code 401: failed to get secret"},
		{"too big", "urlTemplate=" + tmpl + ",headers.Authorization=Bearer t0k", "big", "!the answer is larger than 24576 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := newURLSource(c.config, nil)
			if err != nil {
				t.Fatal(err)
			}
			before := srv.requests.Load()
			got, err := src.Get(c.key)
			if err != nil {
				got = "!" + err.Error()
			}
			if got != c.want {
				t.Errorf("Get(%q) = %q, want %q", c.key, got, c.want)
			}
			if n := srv.requests.Load() - before; n != 1 {
				t.Errorf("%d requests, want 1 (no retry of a 4xx or a bad answer)", n)
			}
		})
	}
}

func TestURLSourceRetries(t *testing.T) {
	ok := func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "v") }
	for _, c := range []struct {
		name       string
		failures   int64
		maxRetries string
		want       string
		requests   int64
	}{
		{"passes on the third try", 2, "3", "v", 3},
		{"gives up after the retries", 5, "2", "!status code 500: failed to get secret", 3},
		{"no retry", 1, "0", "!status code 500: failed to get secret", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := newSecretServer(t, c.failures, ok)
			src, err := newURLSource("urlTemplate="+srv.URL+"/{key},retryBackoff=1ms,maxRetries="+c.maxRetries, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := src.Get("k")
			if err != nil {
				got = "!" + err.Error()
			}
			if got != c.want || srv.requests.Load() != c.requests {
				t.Errorf("Get = %q after %d requests, want %q after %d", got, srv.requests.Load(), c.want, c.requests)
			}
		})
	}
}

// TestURLConfigLayers checks k6's precedence: defaults, then
// K6_SECRET_SOURCE_URL_* variables, then the config file, then the
// inline items.
func TestURLConfigLayers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "url.json")
	err := os.WriteFile(path, []byte(`{"urlTemplate": "http://file/{key}", "headers": {"X-File": "f"},
		"timeout": "10s", "retryBackoff": 250, "maxRetries": 5, "unknownField": {"ignored": true}}`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"K6_SECRET_SOURCE_URL_URL_TEMPLATE":  "http://env/{key}",
		"K6_SECRET_SOURCE_URL_METHOD":        "POST",
		"K6_SECRET_SOURCE_URL_TIMEOUT":       "5s",
		"K6_SECRET_SOURCE_URL_HEADER_X-Env":  "e",
		"K6_SECRET_SOURCE_URL_RESPONSE_PATH": "", // empty: ignored
		"K6_SECRET_SOURCE_URL_SOMETHING":     "ignored",
	}
	src, err := newURLSource("maxRetries=1,config="+path+",headers.X-Inline=i", env)
	if err != nil {
		t.Fatal(err)
	}
	got := src.(*urlSource).cfg
	want := urlConfig{template: "http://file/{key}", method: "POST", timeout: 10 * time.Second,
		retryBackoff: 250 * time.Millisecond, maxRetries: 1, perMinute: 300, burst: 10,
		headers: map[string]string{"X-Env": "e", "X-File": "f", "X-Inline": "i"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("config = %+v\nwant     %+v", got, want)
	}
	if _, err := newURLSource("", env); err != nil {
		t.Errorf("the environment alone: %v", err)
	}
}

func TestReserve(t *testing.T) {
	t0 := time.Unix(1000, 0)
	every := 200 * time.Millisecond
	tat := time.Time{}
	// A burst of 3 passes at once; the 4th and 5th wait one and two
	// intervals.
	for i, want := range []time.Duration{0, 0, 0, every, 2 * every} {
		var wait time.Duration
		wait, tat = reserve(tat, t0, every, 3)
		if wait != want {
			t.Errorf("request %d waits %v, want %v", i+1, wait, want)
		}
	}
	// After a long pause the burst is back.
	if wait, _ := reserve(tat, t0.Add(time.Minute), every, 3); wait != 0 {
		t.Errorf("after a pause a request waits %v, want 0", wait)
	}
}

func TestRetryWait(t *testing.T) {
	for _, c := range []struct {
		attempt int
		jitter  float64
		want    time.Duration
	}{
		{1, 0, time.Second}, {2, 0, 2 * time.Second}, {3, 0, 4 * time.Second}, {3, 1, 6 * time.Second},
		{60, 0, time.Second << 16},
	} {
		if got := retryWait(time.Second, c.attempt, c.jitter); got != c.want {
			t.Errorf("retryWait(1s, %d, %v) = %v, want %v", c.attempt, c.jitter, got, c.want)
		}
	}
}
