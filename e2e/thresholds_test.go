package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestThresholds runs thresholds.js (5 iterations; hits count 5, level 7,
// ok 4 of 5, wait 10..50) with the thresholds of each row.
func TestThresholds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		thresholds string
		flags      []string
		wantCode   int
		// wantErr are substrings of the ERRO line of an invalid threshold.
		wantErr []string
	}{
		{name: "passing", wantCode: 0,
			thresholds: `{"hits":["count==5","rate>0"],"level":["value==7"],"ok":["rate==0.8"],"wait":["avg==30","med==30","p(100)==50","min>=10","max<=50"]}`},
		{name: "failing", wantCode: 99, thresholds: `{"wait":["p(95)<20"],"hits":["count==5"]}`,
			wantErr: []string{"thresholds on metrics 'wait' have been crossed"}},
		{name: "failing rate", wantCode: 99, thresholds: `{"ok":["rate>0.9"]}`},
		{name: "failing submetric", wantCode: 99, thresholds: `{"hits{scenario:nope}":["count>0"]}`,
			wantErr: []string{"thresholds on metrics 'hits{scenario:nope}' have been crossed"}},
		{name: "two failing", wantCode: 99, thresholds: `{"wait":["p(95)<20"],"ok":["rate>0.9"],"hits":["count==5"]}`,
			wantErr: []string{"thresholds on metrics 'ok, wait' have been crossed"}},
		{name: "--no-thresholds", wantCode: 0, thresholds: `{"wait":["p(95)<20"]}`, flags: []string{"--no-thresholds"}},
		{name: "invalid expression", wantCode: 104, thresholds: `{"hits":["count=>5"]}`,
			wantErr: []string{"hits", "count=>5"}},
		{name: "no operator", wantCode: 104, thresholds: `{"hits":["count"]}`, wantErr: []string{"hits", `"count"`}},
		{name: "k6 built-ins nobody emits", wantCode: 0,
			thresholds: `{"http_req_duration":["p(95)<500"],"http_req_failed":["rate<0.01"],"ws_connecting":["avg<1000"],"grpc_req_duration":["p(99)<100"],"sse_event":["count>=0"],"data_sent":["count>=0"]}`},
		{name: "k6 built-in counter stays empty", wantCode: 99, thresholds: `{"http_reqs":["count>0"]}`,
			wantErr: []string{"thresholds on metrics 'http_reqs' have been crossed"}},
		{name: "aggregation checked on a k6 built-in", wantCode: 104, thresholds: `{"http_req_failed":["avg<1"]}`,
			wantErr: []string{"http_req_failed", "avg<1"}},
		{name: "unknown metric", wantCode: 104, thresholds: `{"nope":["count>0"]}`, wantErr: []string{"nope"}},
		{name: "avg on a counter", wantCode: 104, thresholds: `{"hits":["avg<5"]}`, wantErr: []string{"hits", "avg<5"}},
		{name: "count on a trend", wantCode: 104, thresholds: `{"wait":["count<5"]}`, wantErr: []string{"wait", "count<5"}},
		{name: "percentile above 100", wantCode: 104, thresholds: `{"wait":["p(101)<5"]}`, wantErr: []string{"wait", "p(101)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"run", "-q"}, tt.flags...), script("thresholds.js"))
			r := invocation{args: args, env: []string{"THRESHOLDS=" + tt.thresholds}}.run(t)
			r.wantCode(t, tt.wantCode)
			switch tt.wantCode {
			case 0:
				if !strings.Contains(r.stdout, "TOTAL RESULTS") || strings.Contains(r.stdout, "✗") {
					t.Errorf("want a summary without a failed threshold:\n%s", r.stdout)
				}
			case 99:
				for _, s := range []string{"THRESHOLDS", "✗", "TOTAL RESULTS"} {
					if !strings.Contains(r.stdout, s) {
						t.Errorf("stdout lacks %q; the summary must be printed when thresholds fail:\n%s", s, r.stdout)
					}
				}
				for _, s := range tt.wantErr {
					if line := r.errorLine(t); !strings.Contains(line, s) {
						t.Errorf("error line %q lacks %q", line, s)
					}
				}
			case 104:
				assertRejectedBeforeStart(t, r, tt.wantErr)
			}
		})
	}
}

// assertRejectedBeforeStart checks that an invalid configuration was
// reported on one ERRO line naming wantErr, before setup() ran and with
// no summary.
func assertRejectedBeforeStart(t *testing.T, r result, wantErr []string) {
	t.Helper()
	line := r.errorLine(t)
	for _, s := range wantErr {
		if !strings.Contains(line, s) {
			t.Errorf("error line %q does not name %q", line, s)
		}
	}
	if got := strings.TrimSpace(r.stderr); got != line {
		t.Errorf("stderr has more than the one error line:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "setup started") || r.stdout != "" {
		t.Errorf("the test started before the configuration was rejected; stdout:\n%s", r.stdout)
	}
}

// TestThresholdAbortOnFail: a 20 s test whose threshold fails at once stops
// at the first evaluation, runs teardown, prints the summary and exits 99.
func TestThresholdAbortOnFail(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "export.json")
	r := run(t, "run", "-q", "--summary-export", out, script("abort_on_fail.js"))
	r.wantCode(t, 99)
	if r.elapsed > 8*time.Second {
		t.Errorf("run took %s; abortOnFail should stop a 20 s test after the first evaluation", r.elapsed)
	}
	if !strings.Contains(r.stderr, "teardown ran") {
		t.Errorf("teardown did not run after the abort; stderr:\n%s", r.stderr)
	}
	if !strings.Contains(r.stdout, "✗ 'count<1'") {
		t.Errorf("summary lacks the failed threshold:\n%s", r.stdout)
	}
	if failed, _ := lookup(export(t, out), "metrics", "errors", "thresholds", "count<1"); failed != true {
		t.Errorf("export: errors threshold failed = %v, want true", failed)
	}
}
