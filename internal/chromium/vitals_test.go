package chromium

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performancetimeline"
	"github.com/chromedp/chromedp"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

func TestRating(t *testing.T) {
	for _, tc := range []struct {
		metric string
		value  float64
		want   string
	}{
		{MetricWebVitalLCP, 2500, RatingGood},
		{MetricWebVitalLCP, 2500.1, RatingNeedsImprovement},
		{MetricWebVitalLCP, 4000, RatingNeedsImprovement},
		{MetricWebVitalLCP, 4000.1, RatingPoor},
		{MetricWebVitalFCP, 1800, RatingGood},
		{MetricWebVitalFCP, 3001, RatingPoor},
		{MetricWebVitalINP, 200, RatingGood},
		{MetricWebVitalINP, 201, RatingNeedsImprovement},
		{MetricWebVitalINP, 501, RatingPoor},
		{MetricWebVitalFID, 100, RatingGood},
		{MetricWebVitalFID, 300, RatingNeedsImprovement},
		{MetricWebVitalTTFB, 801, RatingNeedsImprovement},
		{MetricWebVitalTTFB, 1801, RatingPoor},
		{MetricWebVitalCLS, 0, RatingGood},
		{MetricWebVitalCLS, 0.1, RatingGood},
		{MetricWebVitalCLS, 0.11, RatingNeedsImprovement},
		{MetricWebVitalCLS, 0.26, RatingPoor},
	} {
		if got := rating(tc.metric, tc.value); got != tc.want {
			t.Errorf("rating(%s, %v) = %q, want %q", tc.metric, tc.value, got, tc.want)
		}
	}
}

// timeline records the PerformanceTimeline events of a page: Chromium's
// own LCP candidates and layout shifts, read through the protocol and not
// through our script.
type timeline struct {
	mu     sync.Mutex
	events []*performancetimeline.TimelineEvent
}

// watchTimeline starts recording p's timeline; call it before Goto.
func watchTimeline(t *testing.T, p *Page) *timeline {
	t.Helper()
	tl := &timeline{}
	err := chromedp.Listen(p.Tab(), func(ev any) {
		if e, ok := ev.(*performancetimeline.EventTimelineEventAdded); ok && e.Event != nil {
			tl.mu.Lock()
			tl.events = append(tl.events, e.Event)
			tl.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	err = p.Run(context.Background(), chromedp.Func(func(ctx context.Context, tgt *chromedp.Target) error {
		_, err := cdp.Call(ctx, tgt, performancetimeline.Enable, performancetimeline.EnableParams{EventTypes: []string{"largest-contentful-paint", "layout-shift"}})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func (tl *timeline) of(kind string) []*performancetimeline.TimelineEvent {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	var out []*performancetimeline.TimelineEvent
	for _, e := range tl.events {
		if e.Type == kind {
			out = append(out, e)
		}
	}
	return out
}

// sinceOrigin converts a protocol wall time to milliseconds since the
// page's time origin (performance.timeOrigin, epoch milliseconds).
func sinceOrigin(at cdp.TimeSinceEpoch, origin float64) float64 {
	return float64(at)*1000 - origin
}

// The loading vitals: the document comes 300 ms late, paints a line of
// text, and 400 ms after its script ran a large block of text, the LCP
// element.
const loadingPage = `<!doctype html><link rel=icon href="data:,">
<p>first paint</p>
<script>
window.armed = performance.now();
setTimeout(() => {
  const big = document.createElement('div');
  big.id = 'big';
  big.style.cssText = 'font-size:40px;width:700px';
  big.textContent = 'The largest contentful paint of this page. '.repeat(12);
  document.body.appendChild(big);
}, 400);
</script>`

func TestLoadingVitals(t *testing.T) {
	const serverDelay = 300 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(serverDelay) // the deliberate wait TTFB measures
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(loadingPage))
	}))
	defer srv.Close()
	b, rec := launchObserved(t)
	p := newPage(t, b)
	tl := watchTimeline(t, p)
	ctx := context.Background()
	if err := p.Goto(ctx, srv.URL); err != nil {
		t.Fatal(err)
	}
	eventually.True(t, "Chromium picks the big block as LCP", func() bool {
		lcps := tl.of("largest-contentful-paint")
		return len(lcps) > 0 && lcps[len(lcps)-1].LcpDetails.ElementID == "big"
	})
	var page struct {
		Origin, FCP, ResponseStart, Armed float64
	}
	err := p.Evaluate(ctx, `() => ({
		origin: performance.timeOrigin,
		fcp: performance.getEntriesByName('first-contentful-paint')[0].startTime,
		responseStart: performance.getEntriesByType('navigation')[0].responseStart,
		armed: window.armed,
	})`, nil, &page)
	if err != nil {
		t.Fatal(err)
	}
	url := map[string]string{"url": srv.URL + "/"}
	ttfb := rec.one(t, MetricWebVitalTTFB, url)
	fcp := rec.one(t, MetricWebVitalFCP, url)
	p.Close()
	lcp := rec.one(t, MetricWebVitalLCP, url)

	lcps := tl.of("largest-contentful-paint")
	chromium := sinceOrigin(lcps[len(lcps)-1].LcpDetails.RenderTime, page.Origin)
	t.Logf("LCP %.2f ms, Chromium's %.2f ms; FCP %.2f (page %.2f); TTFB %.2f (page %.2f)",
		lcp.Value, chromium, fcp.Value, page.FCP, ttfb.Value, page.ResponseStart)
	if math.Abs(lcp.Value-chromium) > 2 {
		t.Errorf("LCP %.2f ms, Chromium's timeline says %.2f ms", lcp.Value, chromium)
	}
	if lcp.Value < page.Armed+400 || lcp.Value < fcp.Value {
		t.Errorf("LCP %.2f ms is not 400 ms after the timer was set at %.2f ms, or before FCP %.2f ms", lcp.Value, page.Armed, fcp.Value)
	}
	if math.Abs(fcp.Value-page.FCP) > 0.01 {
		t.Errorf("FCP %.3f ms, the page's paint entry says %.3f ms", fcp.Value, page.FCP)
	}
	if ttfb.Value < float64(serverDelay.Milliseconds()) || ttfb.Value > fcp.Value {
		t.Errorf("TTFB %.2f ms, want at least the server's %v and at most FCP %.2f", ttfb.Value, serverDelay, fcp.Value)
	}
	if math.Abs(ttfb.Value-page.ResponseStart) > 0.01 {
		t.Errorf("TTFB %.3f ms, the navigation entry says %.3f ms", ttfb.Value, page.ResponseStart)
	}
	for _, s := range []Sample{lcp, fcp, ttfb} {
		if s.Tags["rating"] != rating(s.Metric, s.Value) || s.Tags["name"] != srv.URL+"/" {
			t.Errorf("%s tags %v", s.Metric, s.Tags)
		}
	}
}

// The layout-shift page moves its text twice, in two session windows: the
// second move comes 1.6 s after the first and is larger.
const shiftingPage = `<!doctype html><link rel=icon href="data:,">
<div id=gap style="height:0"></div>
<p style="font-size:40px">This text moves down twice.</p>
<p style="font-size:40px">So does this line.</p>
<script>
setTimeout(() => {
  gap.style.height = '60px';
  setTimeout(() => { gap.style.height = '260px'; }, 1600);
}, 200);
</script>`

func TestCumulativeLayoutShift(t *testing.T) {
	srv := site(t, map[string]string{"/": shiftingPage})
	b, rec := launchObserved(t)
	p := newPage(t, b)
	tl := watchTimeline(t, p)
	if err := p.Goto(context.Background(), srv.URL); err != nil {
		t.Fatal(err)
	}
	eventually.True(t, "two layout shifts", func() bool { return len(tl.of("layout-shift")) >= 2 })
	p.Close()
	cls := rec.one(t, MetricWebVitalCLS, map[string]string{"url": srv.URL + "/"})

	// Our own session windows over Chromium's raw shifts: a window takes
	// shifts less than 1 s apart and spans less than 5 s.
	var best, sum, total float64
	first, last := math.Inf(-1), math.Inf(-1)
	windows := 0
	for _, e := range tl.of("layout-shift") {
		if e.LayoutShiftDetails.HadRecentInput {
			continue
		}
		at := float64(e.Time) * 1000
		if at-last < 1000 && at-first < 5000 {
			sum += e.LayoutShiftDetails.Value
		} else {
			sum, first = e.LayoutShiftDetails.Value, at
			windows++
		}
		last = at
		best = max(best, sum)
		total += e.LayoutShiftDetails.Value
	}
	t.Logf("CLS %.5f; Chromium's shifts: largest window %.5f, all %.5f in %d windows", cls.Value, best, total, windows)
	if windows != 2 {
		t.Fatalf("the page made %d session windows, want 2", windows)
	}
	if best <= 0 || math.Abs(cls.Value-best) > 0.001 {
		t.Errorf("CLS %.5f, want the largest window %.5f", cls.Value, best)
	}
	if cls.Value > total-0.001 {
		t.Errorf("CLS %.5f sums every window (%.5f)", cls.Value, total)
	}
	if cls.Tags["rating"] != rating(MetricWebVitalCLS, cls.Value) {
		t.Errorf("rating %q for %.5f", cls.Tags["rating"], cls.Value)
	}
}

// The interaction page blocks its main thread for 250 ms on a click.
const clickPage = `<!doctype html><link rel=icon href="data:,">
<button id=slow style="width:300px;height:100px">slow</button>
<script>
slow.addEventListener('click', () => {
  const end = performance.now() + 250;
  while (performance.now() < end) {}
  slow.textContent = 'done';
});
</script>`

func TestInteractionToNextPaint(t *testing.T) {
	srv := site(t, map[string]string{"/": clickPage})
	b, rec := launchObserved(t)
	p := newPage(t, b)
	ctx := context.Background()
	if err := p.Goto(ctx, srv.URL); err != nil {
		t.Fatal(err)
	}
	url := map[string]string{"url": srv.URL + "/"}
	rec.one(t, MetricWebVitalFCP, url)
	if err := p.Run(ctx, chromedp.Click("#slow")); err != nil {
		t.Fatal(err)
	}
	fid := rec.one(t, MetricWebVitalFID, url)
	var page struct{ Longest, Delay float64 }
	eventually.True(t, "the page times the click", func() bool {
		// Event entries are only in an observer's buffer, not in
		// getEntriesByType.
		err := p.Evaluate(ctx, `() => new Promise((resolve) => {
			const first = performance.getEntriesByType('first-input')[0];
			const done = (entries) => resolve({
				longest: Math.max(0, ...entries.filter((e) => e.interactionId > 0).map((e) => e.duration)),
				delay: first ? first.processingStart - first.startTime : -1,
			});
			const observer = new PerformanceObserver((list) => { observer.disconnect(); done(list.getEntries()); });
			observer.observe({type: 'event', buffered: true, durationThreshold: 16});
			setTimeout(() => done([]), 500);
		})`, nil, &page)
		return err == nil && page.Longest > 0
	})
	p.Close()
	inp := rec.one(t, MetricWebVitalINP, url)
	t.Logf("INP %.1f ms (page's longest event %.1f), FID %.2f ms (page %.2f)", inp.Value, page.Longest, fid.Value, page.Delay)
	// Event durations come in 8 ms steps, so a 250 ms block may read 248.
	if inp.Value < 242 || inp.Value != page.Longest {
		t.Errorf("INP %.1f ms, want ≥ 242 and the page's longest event %.1f", inp.Value, page.Longest)
	}
	if inp.Tags["rating"] == RatingGood || inp.Tags["rating"] != rating(MetricWebVitalINP, inp.Value) {
		t.Errorf("INP %.1f rated %q", inp.Value, inp.Tags["rating"])
	}
	if math.Abs(fid.Value-page.Delay) > 0.01 {
		t.Errorf("FID %.3f ms, the first-input entry says %.3f", fid.Value, page.Delay)
	}
}

func TestVitalsOfALeftPage(t *testing.T) {
	srv := site(t, map[string]string{
		"/a": `<link rel=icon href="data:,"><p style="font-size:40px">page a</p>`,
		"/b": `<link rel=icon href="data:,"><p style="font-size:40px">page b</p>`,
	})
	b, rec := launchObserved(t)
	p := newPage(t, b)
	ctx := context.Background()
	if err := p.Goto(ctx, srv.URL+"/a"); err != nil {
		t.Fatal(err)
	}
	a := map[string]string{"url": srv.URL + "/a"}
	rec.one(t, MetricWebVitalFCP, a)
	eventually.True(t, "Go holds /a's provisional LCP and CLS", func() bool {
		v := p.observer.vitals
		v.mu.Lock()
		defer v.mu.Unlock()
		for _, vitals := range v.pending {
			_, lcp := vitals["LCP"]
			_, cls := vitals["CLS"]
			if lcp && cls {
				return true
			}
		}
		return false
	})
	if err := p.Goto(ctx, srv.URL+"/b"); err != nil {
		t.Fatal(err)
	}
	// Leaving /a (pagehide) sent its final values, before any close.
	rec.one(t, MetricWebVitalLCP, a)
	rec.one(t, MetricWebVitalCLS, a)
	bURL := map[string]string{"url": srv.URL + "/b"}
	rec.one(t, MetricWebVitalFCP, bURL)
	if err := p.Context().Close(ctx); err != nil {
		t.Fatal(err)
	}
	rec.one(t, MetricWebVitalLCP, bURL)
	rec.one(t, MetricWebVitalLCP, a) // still exactly one
}
