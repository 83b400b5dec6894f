package usefulsse

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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

// watchTolerance is how far a measured moment may be from the page's own
// stamp, in ms: see the uiprobe package's tests.
const watchTolerance = 3.0

// TestWatch runs usefulsse.watch from a script on a real k6/browser page:
// the action is a locator's click, the useful predicate a JavaScript
// function; the result and the samples (layer ui, the script's tags) carry
// the page's own times. A failing action, a non-page and an unknown param
// are checked too.
func TestWatch(t *testing.T) {
	registerOnce.Do(func() { modules.Register(Name, New()) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(watchPageHTML))
	}))
	t.Cleanup(srv.Close)
	sc := &modules.ScenarioInfo{Name: "default", Executor: "shared-iterations", Exec: "default", Browser: "chromium"}
	res := jstest.RunScenario(context.Background(), t, `import usefulsse from 'k6/x/usefulsse';
import { browser } from 'k6/browser';
export default async function () {
  const page = await browser.newPage();
  await page.goto(__ENV.URL);
  const r = await usefulsse.watch(page, '.answer', {
    action: () => page.locator('#send').click(), useful: (ctx) => ctx.text.includes('approved'), done: '[data-done]',
    tags: {bucket: 'qa'},
  });
  if (r.error_code !== '' || r.end !== 'done' || r.action.source !== 'pointerdown' || !r.useful_reached ||
      r.text !== 'Checking your order. The refund is approved.' || !(r.timings.useful > r.timings.first_text)) {
    throw new Error('result ' + JSON.stringify(r));
  }
  console.log('TIMES ' + JSON.stringify(await page.evaluate(() => times)));
  const failed = await usefulsse.watch(page, '.answer', {action: () => { throw new Error('no button'); }, tags: {bucket: 'fail'}});
  if (failed.error_code !== 'ui_action' || !failed.error.includes('no button')) throw new Error('failed action ' + JSON.stringify(failed));
  for (const [args, want] of [[[{}, '.answer'], 'k6/browser page'], [[page, '.answer', {bogus: 1}], 'unknown param "bogus"'],
      [[page, '', {}], 'selector is empty'], [[page, '.answer', {quiet: 'soon'}], 'params.quiet']]) {
    let message = '';
    try { await usefulsse.watch(...args); } catch (e) { message = String(e); }
    if (!message.includes(want)) throw new Error('want a rejection with ' + want + ', got ' + message);
  }
}
`, 1, sc, func(r *modules.Run) { r.Env = map[string]string{"URL": srv.URL} })
	if res.Err != nil {
		t.Fatalf("%v\n%s", res.Err, res.Log)
	}
	_, times, ok := strings.Cut(res.Log, "TIMES ")
	if !ok {
		t.Fatalf("the script logged no page times:\n%s", res.Log)
	}
	times, _, _ = strings.Cut(times, "\n")
	times = times[:strings.LastIndexByte(times, '}')+1] // the JSON, without the log line's fields after it
	var pt struct {
		Down  float64   `json:"down"`
		Steps []float64 `json:"steps"`
	}
	if err := json.Unmarshal([]byte(times), &pt); err != nil {
		t.Fatalf("page times %q: %v", times, err)
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
