package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// capacityServer answers every request after holding one of slots for
// service: it carries slots ÷ service requests per second, and above that
// its queue, and the answers' time, grow without bound.
func capacityServer(t *testing.T, slots int, service time.Duration) string {
	t.Helper()
	sem := make(chan struct{}, slots)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case sem <- struct{}{}:
		case <-r.Context().Done():
			return
		}
		defer func() { <-sem }()
		time.Sleep(service) // the service time that sets the capacity, not synchronisation
		_, _ = w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// searchJSON is what the tests read of `search --json`.
type searchJSON struct {
	Strategy  string   `json:"strategy"`
	Capacity  *float64 `json:"capacity"`
	Bound     string   `json:"bound"`
	FailRate  *float64 `json:"fail_rate"`
	FirstGate string   `json:"first_gate_to_fail"`
	Met       *bool    `json:"met"`
	Rates     []struct {
		Rate         float64
		Runs, Passed int
	} `json:"rates"`
	Steps []struct {
		Rate     float64 `json:"rate"`
		Achieved float64 `json:"achieved"`
		Phase    string  `json:"phase"`
		Verdict  string  `json:"verdict"`
		Gates    []struct {
			Metric string   `json:"metric"`
			Value  *float64 `json:"value"`
			Pass   bool     `json:"pass"`
		} `json:"gates"`
	} `json:"steps"`
}

// lastLine returns the last line of out.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[len(lines)-1]
}

func readSearchJSON(t *testing.T, path string) searchJSON {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s searchJSON
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("search --json: %v", err)
	}
	return s
}

// TestSearchStaircaseFindsCapacity searches, within one run, a server of
// 8 slots × 180 ms (44.4 requests/s): the answer lies within the
// resolution of the knee (a step briefly above it may still pass, its
// queue not grown yet: the tolerance allows one resolution above), the
// gate named is the one that failed, the last step confirmed the answer,
// --expect above it exits 99, and the report page renders in Chromium
// with the answer on it.
func TestSearchStaircaseFindsCapacity(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	url := capacityServer(t, 8, 180*time.Millisecond)
	dir := t.TempDir()
	out, page := filepath.Join(dir, "search.json"), filepath.Join(dir, "search.html")
	r := invocation{args: []string{"search", "--min", "16", "--max", "64", "--raise", "12", "--resolution", "4",
		"--step-duration", "3s", "--settle", "1s", "--expect", "50", "--json", out, "--report", page, script("search/capacity.js")},
		env: []string{"SERVER_URL=" + url}, timeout: 2 * time.Minute}.run(t)
	r.wantCode(t, 99)
	s := readSearchJSON(t, out)
	t.Logf("%d steps in %v: %s", len(s.Steps), r.elapsed, lastLine(r.stdout))
	const capacity = 8 / 0.180
	if s.Bound != "found" || s.Capacity == nil || *s.Capacity < capacity-8 || *s.Capacity > capacity+4 {
		t.Fatalf("bound %s, capacity %v; want about %.1f\n%s", s.Bound, s.Capacity, capacity, r.stdout)
	}
	if s.FailRate == nil || *s.FailRate-*s.Capacity > 4 || s.FirstGate != "http_req_duration{bucket:answers} p(95)<400" {
		t.Errorf("fail rate %v, first gate %q", s.FailRate, s.FirstGate)
	}
	last := s.Steps[len(s.Steps)-1]
	if last.Phase != "confirm" || last.Verdict != "pass" || last.Rate != *s.Capacity || s.Met == nil || *s.Met {
		t.Errorf("last step %+v, met %v", last, s.Met)
	}
	for _, st := range s.Steps { // the runner started what each step asked for
		if st.Verdict == "pass" && (st.Achieved < st.Rate*0.9 || st.Achieved > st.Rate*1.1) {
			t.Errorf("step at %v req/s achieved %v", st.Rate, st.Achieved)
		}
	}
	if !strings.Contains(r.stdout, "capacity: ") || !strings.Contains(r.stderr, "below --expect 50 req/s") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	dom := renderedDOM(t, browser, page)
	if !strings.Contains(dom, "first gate to fail above it: http_req_duration{bucket:answers} p(95)&lt;400") {
		t.Errorf("the page lacks the answer line")
	}
}

// TestSearchAcrossRuns bisects with fresh runs, twice at each rate, a
// server of 44.4 requests/s: the rates that passed did so in both runs,
// and the answer lies below the knee within the resolution.
func TestSearchAcrossRuns(t *testing.T) {
	t.Parallel()
	url := capacityServer(t, 8, 180*time.Millisecond)
	out := filepath.Join(t.TempDir(), "search.json")
	r := invocation{args: []string{"search", "--strategy", "runs", "--repeat", "2", "--min", "20", "--max", "60", "--resolution", "16",
		"--step-duration", "3s", "--settle", "1s", "--json", out, script("search/capacity.js")},
		env: []string{"SERVER_URL=" + url}, timeout: 2 * time.Minute}.run(t)
	r.wantCode(t, 0)
	s := readSearchJSON(t, out)
	t.Logf("%d runs in %v: %s", len(s.Steps), r.elapsed, lastLine(r.stdout))
	const capacity = 8 / 0.180
	if s.Strategy != "runs" || s.Bound != "found" || s.Capacity == nil || *s.Capacity > capacity+4 || *s.Capacity < capacity-16 {
		t.Fatalf("%s %s, capacity %v\n%s", s.Strategy, s.Bound, s.Capacity, r.stdout)
	}
	for _, rate := range s.Rates {
		if rate.Runs != 2 || (rate.Rate <= *s.Capacity) != (rate.Passed == 2) {
			t.Errorf("rate %v: %d of %d passed (capacity %v)", rate.Rate, rate.Passed, rate.Runs, *s.Capacity)
		}
	}
	if !strings.Contains(r.stdout, "passed: 20 req/s 2/2") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

// TestSearchRefuses checks the scripts and flags a search cannot run,
// each with a one-line error naming what is wrong.
func TestSearchRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{script("search/closed.js")}, "no constant- or ramping-arrival-rate scenario"},
		{[]string{script("search/ungated.js")}, "has no thresholds"},
		{[]string{"--scenario", "nope", script("search/capacity.js")}, "--scenario nope: the script has no such scenario"},
		{[]string{"--min", "10", "--max", "5", script("search/capacity.js")}, "--max 5"},
		{[]string{"--strategy", "guess", script("search/capacity.js")}, `--strategy "guess"`},
		{[]string{"--step-duration", "2s", "--settle", "2s", script("search/capacity.js")}, "--step-duration 2s"},
	} {
		r := invocation{args: append([]string{"search"}, tc.args...), env: []string{"SERVER_URL=http://127.0.0.1:9"}}.run(t)
		r.wantCode(t, 104)
		if line := r.errorLine(t); !strings.Contains(line, tc.want) {
			t.Errorf("%v: error %q, want %q", tc.args, line, tc.want)
		}
	}
}
