package chromium

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// recorder is a Samples sink that keeps everything.
type recorder struct {
	mu      sync.Mutex
	samples []Sample
}

func (r *recorder) add(s Sample) {
	r.mu.Lock()
	r.samples = append(r.samples, s)
	r.mu.Unlock()
}

// where returns the samples of metric whose tags include tags.
func (r *recorder) where(metric string, tags map[string]string) []Sample {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Sample
	for _, s := range r.samples {
		if s.Metric != metric {
			continue
		}
		match := true
		for k, v := range tags {
			match = match && s.Tags[k] == v
		}
		if match {
			out = append(out, s)
		}
	}
	return out
}

// one waits for the sample of metric with tags and fails unless there is
// exactly one.
func (r *recorder) one(t *testing.T, metric string, tags map[string]string) Sample {
	t.Helper()
	eventually.True(t, fmt.Sprintf("a %s sample %v arrives", metric, tags), func() bool {
		return len(r.where(metric, tags)) > 0
	})
	got := r.where(metric, tags)
	if len(got) != 1 {
		t.Fatalf("%d %s samples %v, want 1: %+v", len(got), metric, tags, got)
	}
	return got[0]
}

// launchObserved starts a headless Chromium whose pages report to a
// recorder.
func launchObserved(t *testing.T) (*Browser, *recorder) {
	t.Helper()
	rec := &recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := Launch(ctx, Options{Headless: true, Samples: rec.add})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b, rec
}

// site serves pages by path; each is HTML unless its path has an
// extension.
func site(t *testing.T, pages map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if !strings.Contains(r.URL.Path, ".") {
			w.Header().Set("Content-Type", "text/html")
		}
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestNoSinkInstallsNothing(t *testing.T) {
	b := launch(t)
	p := newPage(t, b)
	srv := site(t, map[string]string{"/": `<p>plain</p>`})
	if err := p.Goto(context.Background(), srv.URL); err != nil {
		t.Fatal(err)
	}
	if p.observer != nil {
		t.Fatal("a page observes without a sink")
	}
	var seen bool
	if err := p.Evaluate(context.Background(), `() => typeof window.usefullatencyVital !== "undefined" || typeof window.flushVitals !== "undefined"`, nil, &seen); err != nil {
		t.Fatal(err)
	}
	if seen {
		t.Fatal("the page sees the vitals script")
	}
}

func TestClosingDeliversEverySample(t *testing.T) {
	b, rec := launchObserved(t)
	srv := site(t, map[string]string{"/": `<link rel=icon href="data:,"><p style="font-size:40px">hello</p>`})
	p := newPage(t, b)
	if err := p.Goto(context.Background(), srv.URL); err != nil {
		t.Fatal(err)
	}
	// The script must not leak into the page's own world.
	var seen bool
	if err := p.Evaluate(context.Background(), `() => typeof window.usefullatencyVital !== "undefined" || typeof window.flushVitals !== "undefined"`, nil, &seen); err != nil {
		t.Fatal(err)
	}
	if seen {
		t.Fatal("the page's own scripts see the vitals script")
	}
	url := map[string]string{"url": srv.URL + "/"}
	rec.one(t, MetricWebVitalFCP, url) // the page has painted
	if got := rec.where(MetricWebVitalLCP, url); len(got) != 0 {
		t.Fatalf("LCP before the page is finished: %+v", got)
	}
	if err := p.Context().Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	// No waiting: closing the context returned only after the sink had the
	// final values.
	for _, m := range []string{MetricWebVitalLCP, MetricWebVitalCLS, MetricWebVitalFCP, MetricWebVitalTTFB, MetricHTTPReqDuration} {
		if got := rec.where(m, url); len(got) != 1 {
			t.Errorf("%d %s samples after close, want 1", len(got), m)
		}
	}
	if got := rec.where(MetricWebVitalINP, nil); len(got) != 0 {
		t.Errorf("INP without an interaction: %+v", got)
	}
}
