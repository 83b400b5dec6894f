package usefulsse

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// watchPageHTML answers a click on #send with a new .answer bubble filled
// at 100 and 200 ms and marked done at 300 ms; it records its own
// performance.now() after each step and the pointerdown's timeStamp.
const watchPageHTML = `<!doctype html>
<button id="send">send</button><div id="log"></div>
<script>
window.times = {steps: []};
addEventListener("pointerdown", (e) => { if (times.down === undefined) times.down = e.timeStamp; }, true);
document.getElementById("send").addEventListener("click", () => {
  const el = document.createElement("div");
  el.className = "answer";
  document.getElementById("log").append(el);
  const steps = [[100, () => el.append("Checking your order.")], [200, () => el.append(" The refund is approved.")],
    [300, () => el.setAttribute("data-done", "")]];
  // The page's deliberate pace: each step at its time after the click.
  steps.forEach(([at, f], i) => setTimeout(() => { f(); times.steps[i] = performance.now(); }, at));
});
</script>`

// testPageModule is the module through which the test hands its page to
// the script, as k6/browser will: {page, click()}, click returning a
// promise of a trusted click on #send.
const testPageModule = "k6/x/usefulsse-testpage"

var (
	watchPage      atomic.Pointer[chromium.Page]
	registerPage   sync.Once
	watchTolerance = 3.0 // ms: see the uiprobe package's tests
)

// pageModule returns the test page module of a VU.
func pageModule(vu modules.VU) modules.Instance {
	page := watchPage.Load()
	click := func() *sobek.Promise {
		promise, resolve, reject := vu.Runtime().NewPromise()
		done := vu.RegisterCallback()
		go func() {
			err := page.Run(context.Background(), chromedp.Click(chromedp.CSS("#send")))
			done(func() error {
				if err != nil {
					return reject(err)
				}
				return resolve(sobek.Undefined())
			})
		}()
		return promise
	}
	return modules.Static{Default: map[string]any{"page": page, "click": click}}
}

// openWatchPage launches Chromium and opens the test page in it.
func openWatchPage(t *testing.T) *chromium.Page {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(watchPageHTML))
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := chromium.Launch(ctx, chromium.Options{Headless: true})
	if err != nil {
		t.Fatalf("launching Chromium (usefulsse.watch's test needs one): %v", err)
	}
	t.Cleanup(b.Close)
	c, err := b.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	page, err := c.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := page.Goto(ctx, srv.URL); err != nil {
		t.Fatal(err)
	}
	return page
}

// TestWatch runs usefulsse.watch from a script on a real page: the action
// is a promise of a click, the useful predicate a JavaScript function; the
// result and the samples (layer ui, the script's tags) carry the page's
// own times. A failing action, a non-page and an unknown param are checked
// too.
func TestWatch(t *testing.T) {
	registerOnce.Do(func() { modules.Register(Name, New()) })
	registerPage.Do(func() { modules.Register(testPageModule, modules.ModuleFunc(pageModule)) })
	page := openWatchPage(t)
	watchPage.Store(page)
	res := jstest.Run(context.Background(), t, `import usefulsse from 'k6/x/usefulsse';
import tp from 'k6/x/usefulsse-testpage';
export default async function () {
  const r = await usefulsse.watch(tp.page, '.answer', {
    action: () => tp.click(), useful: (ctx) => ctx.text.includes('approved'), done: '[data-done]',
    tags: {bucket: 'qa'},
  });
  if (r.error_code !== '' || r.end !== 'done' || r.action.source !== 'pointerdown' || !r.useful_reached ||
      r.text !== 'Checking your order. The refund is approved.' || !(r.timings.useful > r.timings.first_text)) {
    throw new Error('result ' + JSON.stringify(r));
  }
  const failed = await usefulsse.watch(tp.page, '.answer', {action: () => { throw new Error('no button'); }, tags: {bucket: 'fail'}});
  if (failed.error_code !== 'ui_action' || !failed.error.includes('no button')) throw new Error('failed action ' + JSON.stringify(failed));
  for (const [args, want] of [[[{}, '.answer'], 'k6/browser page'], [[tp.page, '.answer', {bogus: 1}], 'unknown param "bogus"'],
      [[tp.page, '', {}], 'selector is empty'], [[tp.page, '.answer', {quiet: 'soon'}], 'params.quiet']]) {
    let message = '';
    try { await usefulsse.watch(...args); } catch (e) { message = String(e); }
    if (!message.includes(want)) throw new Error('want a rejection with ' + want + ', got ' + message);
  }
}
`, 1)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var pt struct {
		Down  float64   `json:"down"`
		Steps []float64 `json:"steps"`
	}
	if err := page.Evaluate(context.Background(), `() => times`, nil, &pt); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		name string
		step int
	}{{"usefulsse_first_text", 0}, {"usefulsse_useful", 1}, {"usefulsse_complete", 2}} {
		got := uiSamples(jstest.Of(res.Samples, m.name), "qa")
		if len(got) != 1 {
			t.Fatalf("%s: %d samples with layer ui and bucket qa, want 1", m.name, len(got))
		}
		want := pt.Steps[m.step] - pt.Down
		t.Logf("%s: measured %.3f ms, page %.3f ms", m.name, got[0].Value, want)
		if math.Abs(got[0].Value-want) > watchTolerance || got[0].Tags["scenario"] != "default" {
			t.Errorf("%s = %.3f ms tagged %v; the page says %.3f ms", m.name, got[0].Value, got[0].Tags, want)
		}
	}
	reached := uiSamples(jstest.Of(res.Samples, "usefulsse_useful_reached"), "fail")
	if len(reached) != 1 || reached[0].Value != 0 || reached[0].Tags["error_code"] != "ui_action" {
		t.Errorf("the failed action's useful_reached samples: %+v", reached)
	}
}

// uiSamples returns the samples with layer ui and the given bucket.
func uiSamples(samples []metrics.Sample, bucket string) []metrics.Sample {
	var out []metrics.Sample
	for _, s := range samples {
		if s.Tags["layer"] == "ui" && s.Tags["bucket"] == bucket {
			out = append(out, s)
		}
	}
	return out
}
