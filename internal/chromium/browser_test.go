package chromium

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// launch starts a headless Chromium for a test and closes it at the end.
func launch(t *testing.T) *Browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := Launch(ctx, Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

func TestPageGotoAndEvaluate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>hello</title><p id="x">from the page</p>`))
	}))
	defer srv.Close()
	b := launch(t)
	ctx := context.Background()
	version, err := b.Version(ctx)
	if err != nil || !strings.Contains(version, "Chrome") {
		t.Fatalf("version %q, %v", version, err)
	}
	c, err := b.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Goto(ctx, srv.URL); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Title, Text string
		Sum         int
	}
	err = p.Evaluate(ctx, `async (a, b) => ({title: document.title, text: document.getElementById("x").textContent, sum: a + b})`, []any{2, 3}, &got)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "hello" || got.Text != "from the page" || got.Sum != 5 {
		t.Fatalf("got %+v", got)
	}
	if err := p.Evaluate(ctx, `() => { throw new Error("boom") }`, nil, nil); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("exception: %v", err)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if !p.Closed() {
		t.Fatal("closing the context left its page open")
	}
}

func TestContextsAreIsolated(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<p>x</p>`))
	}))
	defer srv.Close()
	b := launch(t)
	ctx := context.Background()
	var pages [2]*Page
	for i := range pages {
		c, err := b.NewContext()
		if err != nil {
			t.Fatal(err)
		}
		if pages[i], err = c.NewPage(ctx); err != nil {
			t.Fatal(err)
		}
		if err := pages[i].Goto(ctx, srv.URL); err != nil {
			t.Fatal(err)
		}
	}
	if err := pages[0].Evaluate(ctx, `() => { document.cookie = "a=1"; localStorage.setItem("k", "v") }`, nil, nil); err != nil {
		t.Fatal(err)
	}
	var seen struct{ Cookie, Item string }
	if err := pages[1].Evaluate(ctx, `() => ({cookie: document.cookie, item: localStorage.getItem("k") || ""})`, nil, &seen); err != nil {
		t.Fatal(err)
	}
	if seen.Cookie != "" || seen.Item != "" {
		t.Fatalf("second context sees the first's storage: %+v", seen)
	}
}

func TestOptionsFromEnv(t *testing.T) {
	env := map[string]string{"K6_BROWSER_HEADLESS": "false", "K6_BROWSER_ARGS": "lang=de, mute-audio", "K6_BROWSER_TIMEOUT": "5s"}
	o, err := OptionsFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if o.Headless || o.Timeout != 5*time.Second || len(o.Args) != 2 || o.Args[0] != "lang=de" {
		t.Fatalf("%+v", o)
	}
	env["K6_BROWSER_TIMEOUT"] = "soon"
	if _, err := OptionsFromEnv(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "K6_BROWSER_TIMEOUT") {
		t.Fatalf("bad timeout: %v", err)
	}
}
