package mock

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// get sends a GET and returns the status, the Content-Type and the body.
func get(t *testing.T, url string) (int, string, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// TestDiscoveryRoutes checks GET /v1/models, /v1/version and /v1/health
// and their unversioned aliases: 200, JSON, the OpenAI list shape.
func TestDiscoveryRoutes(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	cfg.Model, cfg.Version = "house-model", "9.8.7"
	_, url := start(t, cfg)
	for _, v := range []string{"/v1", ""} {
		status, typ, body := get(t, url+v+"/models")
		var models struct {
			Object string `json:"object"`
			Data   []struct {
				ID, Object string
				Created    *int64
			} `json:"data"`
		}
		if err := json.Unmarshal(body, &models); err != nil || status != 200 || typ != "application/json" {
			t.Fatalf("%s/models: %d %q %s", v, status, typ, body)
		}
		if models.Object != "list" || len(models.Data) != 1 {
			t.Fatalf("%s/models: %s", v, body)
		}
		m := models.Data[0]
		if m.ID != "house-model" || m.Object != "model" || m.Created == nil || *m.Created < 1.7e9 || !strings.Contains(string(body), `"owned_by":"usefullatency"`) {
			t.Errorf("%s/models: %s", v, body)
		}
		if status, _, body := get(t, url+v+"/version"); status != 200 || string(body) != `{"version":"9.8.7"}`+"\n" {
			t.Errorf("%s/version: %d %s", v, status, body)
		}
		if status, _, body := get(t, url+v+"/health"); status != 200 || !strings.HasPrefix(string(body), `{"status":"ok",`) {
			t.Errorf("%s/health: %d %s", v, status, body)
		}
	}
	_, url = start(t, fastConfig())
	var v struct{ Version string }
	if _, _, body := get(t, url+"/v1/version"); json.Unmarshal(body, &v) != nil || v.Version == "" {
		t.Errorf("default version: %s", body)
	}
}

// TestAliasesAnswerLikeVersioned sends the same seeded requests to the /v1
// routes and to their unversioned aliases: the same streams, the same
// whole answers.
func TestAliasesAnswerLikeVersioned(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	for _, c := range []struct{ path, body string }{
		{"/chat/completions", `{"bucket":"single_tool","mock_seed":9,"stream":true}`},
		{"/chat/completions", `{"bucket":"qa","mock_seed":9}`},
		{"/completions", `{"bucket":"retrieval","mock_seed":9,"prompt":"warranty?","stream":true}`},
		{"/completions", `{"bucket":"qa","mock_seed":9,"prompt":"return?"}`},
	} {
		a, b := postT(t, url+"/v1"+c.path, c.body), postT(t, url+c.path, c.body)
		if a.status != 200 || b.status != a.status || a.header.Get("Content-Type") != b.header.Get("Content-Type") {
			t.Fatalf("%s %s: status %d and %d", c.path, c.body, a.status, b.status)
		}
		if len(a.body) > 0 {
			a.events = []sseEvent{{data: string(a.body)}}
			b.events = []sseEvent{{data: string(b.body)}}
		}
		if len(a.events) == 0 || len(a.events) != len(b.events) {
			t.Fatalf("%s %s: %d and %d events", c.path, c.body, len(a.events), len(b.events))
		}
		for i := range a.events {
			if stripVolatile(a.events[i].data) != stripVolatile(b.events[i].data) {
				t.Errorf("%s event %d:\n%s\n%s", c.path, i, a.events[i].data, b.events[i].data)
			}
		}
	}
}

// TestUnknownRoutes checks that what the mock does not serve is still 404
// (405 for a known route with the wrong method), and that the business and
// Anthropic routes have no unversioned or versioned twins.
func TestUnknownRoutes(t *testing.T) {
	t.Parallel()
	_, url := start(t, fastConfig())
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/v1/embeddings", 404},
		{"POST", "/v1/embeddings", 404},
		{"POST", "/v2/chat/completions", 404},
		{"POST", "/v1/chat", 404},
		{"POST", "/messages", 404},
		{"GET", "/v1/models/house-model", 404},
		{"GET", "/", 404},
		{"GET", "/v1/chat/completions", 405},
		{"POST", "/v1/models", 405},
	} {
		req, _ := http.NewRequest(c.method, url+c.path, strings.NewReader(`{}`))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, resp.StatusCode, c.want)
		}
	}
}

// TestBaseURL checks the URL Start returns for a listener's address: an
// unspecified host becomes the IPv4 loopback, which Go's dual-stack
// wildcard listeners accept.
func TestBaseURL(t *testing.T) {
	for _, c := range []struct {
		name string
		addr net.Addr
		want string
	}{
		{"loopback", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8000}, "http://127.0.0.1:8000"},
		{"IPv6 loopback", &net.TCPAddr{IP: net.IPv6loopback, Port: 8000}, "http://[::1]:8000"},
		{"0.0.0.0", &net.TCPAddr{IP: net.IPv4zero, Port: 8000}, "http://127.0.0.1:8000"},
		{"[::]", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8000}, "http://127.0.0.1:8000"},
	} {
		if got := baseURL(c.addr); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
