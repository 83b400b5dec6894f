package k6browser_test

import (
	"testing"

	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/metrics"
)

// The pages of an iteration report k6's browser metrics into the run, with
// the iteration's tags (scenario) and their own (url, method, status,
// rating); the metrics exist from the module's import on, so thresholds
// may name them.
func TestBrowserMetrics(t *testing.T) {
	srv := newSite(t)
	s := newSession(t, script(`
export default async function () {
	const page = await browser.newPage();
	try {
		await page.goto('{{url}}/second');
		await page.locator('#second').click();
	} finally {
		await page.close();
	}
}`, srv.URL), "chromium", nil)
	for _, name := range []string{"browser_web_vital_lcp", "browser_http_req_duration", "browser_data_received"} {
		if s.run.Registry.Get(name) == nil {
			t.Fatalf("%s is not registered before the first iteration", name)
		}
	}
	s.mustIterate("default")
	s.mu.Lock()
	samples := append([]metrics.Sample(nil), s.samples...)
	s.mu.Unlock()
	doc := func(name string) []metrics.Sample {
		var out []metrics.Sample
		for _, smp := range jstest.Of(samples, name) {
			if smp.Tags["url"] == srv.URL+"/second" && smp.Tags["scenario"] == "ui" {
				out = append(out, smp)
			}
		}
		return out
	}
	if d := doc("browser_http_req_duration"); len(d) != 1 || d[0].Tags["method"] != "GET" || d[0].Tags["status"] != "200" || d[0].Value <= 0 {
		t.Errorf("browser_http_req_duration of the document: %+v", d)
	}
	if r := doc("browser_data_received"); len(r) != 1 || r[0].Value <= 0 {
		t.Errorf("browser_data_received of the document: %+v", r)
	}
	for _, name := range []string{"browser_web_vital_ttfb", "browser_web_vital_fcp"} {
		if v := doc(name); len(v) != 1 || v[0].Tags["rating"] == "" {
			t.Errorf("%s: %+v", name, v)
		}
	}
}
