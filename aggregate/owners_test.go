package aggregate

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/result"
)

// TestAggregatorSegmentOwners: each execution segment belongs to the first
// runner that posted it. A forged "whole test, final" post, an overlapping
// segment, a second segment from one runner, a post from the owner's id at
// another address, a post after the owner's final one, a result whose
// metric types or thresholds cannot merge with the others', and one runner
// more than --runners are all refused (409 or 400) and logged, and none
// ends the aggregation or changes what it judges: once the three real
// runners sent their final result, it ends with their merge alone.
func TestAggregatorSegmentOwners(t *testing.T) {
	t.Parallel()
	var log syncWriter
	log.w = &bytes.Buffer{}
	a := New(Config{Interval: time.Hour, Token: testToken, Log: &log})
	h := a.Handler()
	for i := range 3 {
		if code := runnerN(i).post(h, encoded(shareFile(i, 3, 10, 0, "")), false); code != http.StatusNoContent {
			t.Fatalf("runner %d: %d", i, code)
		}
	}
	gauge := shareFile(1, 3, 10, 0, "")
	gauge.Metrics[0].Type = "gauge"
	badGate := shareFile(1, 3, 10, 0, "")
	badGate.Thresholds = map[string][]result.Threshold{"iterations": {{Source: "p(95)<1"}}} // no p(95) on a counter
	whole := shareFile(0, 1, 1e6, 0, "")
	whole.Sequence = "0,1/3,2/3,1"
	half := shareFile(0, 2, 1000, 0, "")
	half.Sequence = "0,1/3,2/3,1"
	for _, tc := range []struct {
		name string
		p    poster
		f    *result.File
		want int
	}{
		{"a forged whole test, final", poster{id: "forger"}, whole, http.StatusConflict},
		{"another segment sequence", poster{id: "forger"}, shareFile(0, 1, 1e6, 0, ""), http.StatusConflict},
		{"an overlapping segment", poster{id: "forger"}, half, http.StatusConflict},
		{"the owner's id from another address", poster{id: runnerN(0).id, remote: "10.0.0.66:4000"}, shareFile(0, 3, 1e6, 0, ""), http.StatusConflict},
		{"another segment from a runner", runnerN(0), shareFile(1, 3, 1e6, 0, ""), http.StatusConflict},
		{"a segment another runner owns", runnerN(2), shareFile(1, 3, 1e6, 0, ""), http.StatusConflict},
		{"another metric type", runnerN(1), gauge, http.StatusConflict},
		{"other thresholds", runnerN(1), badGate, http.StatusConflict},
		{"no segment", poster{id: "forger"}, &result.File{TestID: "test", Sequence: "0,1/3,2/3,1"}, http.StatusBadRequest},
	} {
		rec := tc.p.send(h, encoded(tc.f), true)
		if rec.Code != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, rec.Code, rec.Body, tc.want)
		}
	}
	if a.closed {
		t.Fatal("a refused post ended the aggregation")
	}
	for i := range 3 {
		if code := runnerN(i).post(h, encoded(shareFile(i, 3, 10, 0, "")), true); code != http.StatusNoContent {
			t.Fatalf("runner %d's final post: %d", i, code)
		}
	}
	if code := runnerN(1).post(h, encoded(shareFile(1, 3, 1e6, 0, "")), true); code != http.StatusConflict {
		t.Errorf("a post after the final one: %d, want 409", code)
	}
	merged, aborted, err := a.Run(context.Background())
	if err != nil || aborted || merged.Metrics[0].Sink.Sum != 30 || len(merged.Segments) != 3 {
		t.Fatalf("merged %+v, aborted %v, err %v", merged, aborted, err)
	}
	got := log.String()
	for _, want := range []string{
		"segment 0:1 overlaps segment 0:1/3 of the runner at 10.0.0.7 (runner-a), which posted it first",
		"segment 0:1/3 belongs to the runner at 10.0.0.7 (runner-a), which posted it first",
		"the runner at 10.0.0.7 (runner-a) posted segment 0:1/3 before, not 1/3:2/3",
		`metric "iterations" is a gauge of default values in the result of the runner at 10.0.0.7 (runner-b) (segment 1/3:2/3)`,
		"10 posts were refused",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q:\n%s", want, got)
		}
	}

	first := New(Config{Interval: time.Hour, Token: testToken})
	if rec := runnerN(1).send(first.Handler(), encoded(badGate), true); rec.Code != http.StatusBadRequest || first.closed || first.testID != "" {
		t.Errorf("a first post whose threshold cannot be judged: %d %s, closed %v", rec.Code, rec.Body, first.closed)
	}

	b := New(Config{Interval: time.Hour, Token: testToken, Runners: 2})
	runnerN(0).post(b.Handler(), encoded(shareFile(0, 3, 1, 0, "")), false)
	runnerN(1).post(b.Handler(), encoded(shareFile(1, 3, 1, 0, "")), false)
	if rec := runnerN(2).send(b.Handler(), encoded(shareFile(2, 3, 1, 0, "")), false); rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "one too many") {
		t.Errorf("a third runner with --runners 2: %d %s", rec.Code, rec.Body)
	}
}

// TestMissing: the parts of the test no runner covers.
func TestMissing(t *testing.T) {
	for _, tc := range []struct {
		segs []string
		want string
	}{
		{nil, "0:1"},
		{[]string{"0:1"}, ""},
		{[]string{"0:1/3", "2/3:1"}, "1/3:2/3"},
		{[]string{"1/4:1/2"}, "0:1/4 1/2:1"},
		{[]string{"0:1/2", "1/2:1"}, ""},
	} {
		a := New(Config{})
		for i, s := range tc.segs {
			segs, err := segmentsOf(&result.File{Segments: []string{s}})
			if err != nil {
				t.Fatal(err)
			}
			a.runners[s] = &runnerState{owner: owner{id: string(rune('a' + i))}, segs: segs}
		}
		if got := strings.Join(a.missing(), " "); got != tc.want {
			t.Errorf("%v: missing %q, want %q", tc.segs, got, tc.want)
		}
	}
}
