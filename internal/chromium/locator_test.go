package chromium

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// locatorSite serves a form that posts to /result, which echoes its fields, and
// a page whose element appears after a delay.
func locatorSite(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>form</title>
<form action="/result" method="post">
  <input name="login" id="login"> <input name="secret" type="password">
  <input type="checkbox" name="remember" id="remember">
  <select name="color"><option value="r">Red</option><option value="g">Green</option></select>
  <textarea name="note"></textarea>
  <button id="go" type="submit">Send</button>
</form>
<p class="item">one</p><p class="item">two</p>
<div id="hidden" style="display:none">secret</div>
<a id="next" href="/second#top">next</a>
<script>setTimeout(() => { const d = document.createElement('div'); d.id = 'late'; d.textContent = 'arrived'; document.body.append(d) }, 300)</script>`)
	})
	mux.HandleFunc("/result", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		w.Header().Set("X-Echo", "yes")
		fmt.Fprintf(w, `<title>result</title><pre id="out">login=%s remember=%s color=%s note=%s</pre>`,
			html.EscapeString(r.PostFormValue("login")), html.EscapeString(r.PostFormValue("remember")),
			html.EscapeString(r.PostFormValue("color")), html.EscapeString(r.PostFormValue("note")))
	})
	mux.HandleFunc("/second", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>second</title><h1>second page</h1>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// newPage opens a page of a fresh context of b.
func newPage(t *testing.T, b *Browser) *Page {
	t.Helper()
	c, err := b.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.NewPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return p
}

func timeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func TestLocatorFormRoundTrip(t *testing.T) {
	srv := locatorSite(t)
	p := newPage(t, launch(t))
	ctx := timeout(t, 30*time.Second)
	res, err := p.Navigate(ctx, srv.URL, Load)
	if err != nil {
		t.Fatal(err)
	}
	if res == nil || res.Status != 200 || res.URL != srv.URL+"/" {
		t.Fatalf("response %+v", res)
	}
	if err := p.Locator(`input[name="login"]`, LocatorOptions{}).Type(ctx, "admin", 0); err != nil {
		t.Fatal(err)
	}
	if err := p.Locator(`//input[@name="secret"]`, LocatorOptions{}).Fill(ctx, "pw", false); err != nil {
		t.Fatal(err)
	}
	if err := p.Locator("#remember", LocatorOptions{}).Check(ctx, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	label := "Green"
	got, err := p.Locator("select", LocatorOptions{}).SelectOption(ctx, []OptionSpec{{Label: &label}})
	if err != nil || len(got) != 1 || got[0] != "g" {
		t.Fatalf("selectOption = %v, %v", got, err)
	}
	if err := p.Locator("textarea", LocatorOptions{}).Fill(ctx, "a\nb", false); err != nil {
		t.Fatal(err)
	}
	w := p.WatchNavigation()
	if err := p.Locator("text=send", LocatorOptions{}).Click(ctx, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err = w.Wait(ctx, Load)
	if err != nil {
		t.Fatal(err)
	}
	if res == nil || res.Headers["x-echo"] != "yes" {
		t.Fatalf("response after submit: %+v", res)
	}
	text, err := p.Locator("#out", LocatorOptions{}).TextContent(ctx)
	if want := "login=admin remember=on color=g note=a\nb"; err != nil || text != want {
		t.Fatalf("result %q, %v; want %q", text, err, want)
	}
	if title, _ := p.Title(ctx); title != "result" || !strings.HasSuffix(p.URL(), "/result") {
		t.Fatalf("title %q url %q", title, p.URL())
	}
}

func TestLocatorWaitsAndFails(t *testing.T) {
	srv := locatorSite(t)
	p := newPage(t, launch(t))
	ctx := timeout(t, 30*time.Second)
	if _, err := p.Navigate(ctx, srv.URL, DOMContentLoaded); err != nil {
		t.Fatal(err)
	}
	// #late appears 300 ms after the page's script ran.
	late, err := p.WaitForSelector(ctx, "#late", "visible")
	if err != nil || late == nil {
		t.Fatalf("waitForSelector: %v", err)
	}
	if text, err := late.TextContent(ctx); err != nil || text != "arrived" {
		t.Fatalf("late text %q, %v", text, err)
	}
	short := timeout(t, 300*time.Millisecond)
	err = p.Locator("#hidden", LocatorOptions{}).Click(short, ClickOptions{})
	var we *WaitError
	if !errors.As(err, &we) || !errors.Is(err, context.DeadlineExceeded) || we.Reason != "the element is not visible" {
		t.Fatalf("click on a hidden element: %v", err)
	}
	err = p.Locator(".item", LocatorOptions{}).Click(ctx, ClickOptions{})
	if err == nil || !strings.Contains(err.Error(), "strict mode violation") {
		t.Fatalf("strict locator of two elements: %v", err)
	}
	second := p.Locator(".item", LocatorOptions{}).Nth(1)
	if text, err := second.InnerText(ctx); err != nil || text != "two" {
		t.Fatalf("nth(1) %q, %v", text, err)
	}
	if n, err := p.Locator("p", LocatorOptions{HasText: &TextFilter{Text: "TWO"}}).Count(ctx); err != nil || n != 1 {
		t.Fatalf("hasText count %d, %v", n, err)
	}
	if vis, err := p.Locator("#hidden", LocatorOptions{}).IsVisible(ctx); err != nil || vis {
		t.Fatalf("hidden isVisible = %v, %v", vis, err)
	}
	if _, err := p.Navigate(ctx, closedPort(t), Load); err == nil || !strings.Contains(err.Error(), "ERR_CONNECTION_REFUSED") {
		t.Fatalf("refused port: %v", err)
	}
}

// closedPort returns the URL of a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/"
}
