package uiprobe

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/usefullatency/usefullatency/internal/chromium"
)

// testPage is a chat page whose script answers a click on #send by
// appending a new .answer bubble (after an old one, present from the start;
// or by emptying and reusing the old one) and applying the steps of its plan (the "plan" query parameter, JSON) at
// their times after the click. It records performance.now() right after
// each step in window.times.steps, and the pointerdown's timeStamp in
// window.times.down: the page's own account that the probe must match.
const testPage = `<!doctype html>
<style>.hidden { display: none }</style>
<button id="send">send</button>
<div id="log"><div class="answer">an old answer</div></div>
<script>
const plan = JSON.parse(new URLSearchParams(location.search).get("plan"));
window.times = {steps: []};
addEventListener("pointerdown", (e) => { if (times.down === undefined) times.down = e.timeStamp; }, true);
function apply(el, island, s) {
  if (s.html) el.insertAdjacentHTML("beforeend", s.html);
  if (s.state) island.textContent = JSON.stringify(s.state);
  if (s.show) el.classList.remove("hidden");
  if (s.done) el.setAttribute("data-done", "");
}
document.getElementById("send").addEventListener("click", () => {
  const el = plan.reuse ? document.querySelector(".answer") : document.createElement("div");
  el.textContent = "";
  el.className = plan.hidden ? "answer hidden" : "answer";
  const island = document.createElement("script");
  island.type = "application/json";
  el.appendChild(island);
  if (!plan.reuse) document.getElementById("log").appendChild(el);
  plan.steps.forEach((s, i) => {
    // The page's deliberate pace: each step at its time after the click.
    setTimeout(() => { apply(el, island, s); times.steps[i] = performance.now(); }, s.at);
  });
});
</script>`

// step is one change the test page makes: at ms after the click, it appends
// html, sets the state island, shows a hidden bubble or marks it done.
type step struct {
	At    int            `json:"at"`
	HTML  string         `json:"html,omitempty"`
	State map[string]any `json:"state,omitempty"`
	Show  bool           `json:"show,omitempty"`
	Done  bool           `json:"done,omitempty"`
}

// plan is what the test page does after a click; Hidden makes the bubble
// display:none until a Show step, Reuse answers in the old bubble.
type plan struct {
	Steps  []step `json:"steps"`
	Hidden bool   `json:"hidden,omitempty"`
	Reuse  bool   `json:"reuse,omitempty"`
}

// pageTimes is the page's own account of a run.
type pageTimes struct {
	Origin float64   `json:"origin"`
	Down   float64   `json:"down"`
	Steps  []float64 `json:"steps"`
}

// shared is the Chromium the package's tests share, launched on first use.
var shared struct {
	once sync.Once
	b    *chromium.Browser
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.b != nil {
		shared.b.Close()
	}
	os.Exit(code)
}

// newPage returns a page in a context of its own of the shared browser.
func newPage(t *testing.T) *chromium.Page {
	t.Helper()
	shared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		shared.b, shared.err = chromium.Launch(ctx, chromium.Options{Headless: true})
	})
	if shared.err != nil {
		t.Fatalf("launching Chromium (the UI probe's tests need one): %v", shared.err)
	}
	c, err := shared.b.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	p, err := c.NewPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testServer serves testPage.
func testServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(testPage))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// openPlan opens the test page with p's plan in a new page.
func openPlan(t *testing.T, srv *httptest.Server, p plan) *chromium.Page {
	t.Helper()
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	page := newPage(t)
	if err := page.Goto(context.Background(), srv.URL+"/?plan="+url.QueryEscape(string(data))); err != nil {
		t.Fatal(err)
	}
	return page
}

// click clicks #send with trusted mouse events.
func click(t *testing.T, page *chromium.Page) {
	t.Helper()
	if err := page.Run(context.Background(), chromedp.Click(chromedp.CSS("#send"))); err != nil {
		t.Fatal(err)
	}
}

// times reads the page's own account.
func times(t *testing.T, page *chromium.Page) pageTimes {
	t.Helper()
	var pt pageTimes
	err := page.Evaluate(context.Background(), `() => ({origin: performance.timeOrigin, down: times.down, steps: times.steps})`, nil, &pt)
	if err != nil {
		t.Fatal(err)
	}
	return pt
}

// watch starts a watch of .answer, clicks, and waits for the result.
func watch(t *testing.T, page *chromium.Page, spec Spec) Result {
	t.Helper()
	ctx := context.Background()
	w, err := Start(ctx, page, ".answer", spec)
	if err != nil {
		t.Fatal(err)
	}
	click(t, page)
	res, err := w.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
