package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/internal/influxtest"
)

// TestInfluxDBOutput runs examples/openai.js against --mock with
// -o influxdb into a real influxd, then reads the points back with
// InfluxQL: the database was created, every metric of the summary is a
// measurement, every request and every probe sample is a point (counts
// equal to the summary export's), with the bucket tag, and url is a
// field, not a tag.
func TestInfluxDBOutput(t *testing.T) {
	t.Parallel()
	srv := influxtest.Start(t, false)
	out := filepath.Join(t.TempDir(), "export.json")
	r := invocation{
		args: []string{"run", "-q", "--mock", "-e", "DURATION=2s", "-o", "influxdb=" + srv.Base + "/e2e",
			"--summary-export", out, "--summary-trend-stats", "avg,max,count", example("openai.js")},
		env: []string{"K6_INFLUXDB_PUSH_INTERVAL=200ms"},
	}.run(t)
	r.wantCode(t, 0)
	if strings.Contains(r.stderr, "influxdb") {
		t.Fatalf("the output warned:\n%s\ninfluxd:\n%s", r.stderr, srv.Log())
	}
	exp := export(t, out)
	for q, key := range map[string]string{
		"SELECT count(value) FROM http_reqs":                                       "http_reqs",
		"SELECT count(value) FROM iterations":                                      "iterations",
		"SELECT count(value) FROM usefulsse_first_text WHERE bucket='single_tool'": "usefulsse_first_text{bucket:single_tool}",
	} {
		want := number(t, exp, "metrics", key, "count")
		if want == 0 {
			t.Errorf("the summary counts no %s: the script must produce some", key)
		}
		if got := srv.Number(t, "e2e", q, "count"); got != want {
			t.Errorf("%s = %v, the summary counts %v", q, got, want)
		}
	}
	want := number(t, exp, "metrics", "usefulsse_first_text{bucket:single_tool}", "max")
	if got := srv.Number(t, "e2e", "SELECT max(value) FROM usefulsse_first_text WHERE bucket='single_tool'", "max"); got != want {
		t.Errorf("usefulsse_first_text max = %v ms, the summary's %v ms", got, want)
	}
	measurements := map[string]bool{}
	for _, row := range srv.Query(t, "e2e", "SHOW MEASUREMENTS")[0].Rows() {
		measurements[row["name"].(string)] = true
	}
	metrics, _ := exp["metrics"].(map[string]any)
	for name := range metrics {
		if !strings.Contains(name, "{") && !measurements[name] {
			t.Errorf("the summary has %s, InfluxDB no measurement of it (measurements: %v)", name, measurements)
		}
	}
	tags := map[string]bool{}
	for _, row := range srv.Query(t, "e2e", "SHOW TAG KEYS FROM http_reqs")[0].Rows() {
		tags[row["tagKey"].(string)] = true
	}
	if !tags["bucket"] || !tags["status"] || !tags["method"] || tags["url"] {
		t.Errorf("http_reqs tag keys %v: want bucket, status and method, and url as a field", tags)
	}
}

// TestInfluxDBOutputFailures runs a script with -o influxdb against an
// influxd with authentication and a wrong password, then against a port
// nobody listens on: both runs exit 0, print one WARN line for the first
// failure and one end-of-run line, never the password, and the dead
// server does not make the run take longer than it does without it.
func TestInfluxDBOutputFailures(t *testing.T) {
	t.Parallel()
	srv := influxtest.Start(t, true)
	const secret = "pw-s3cret-influx"
	host := strings.TrimPrefix(srv.Base, "http://")
	args := func(out ...string) []string {
		return append(append([]string{"run", "--mock", "-e", "DURATION=2s"}, out...), example("openai.js"))
	}
	base := invocation{args: args()}.run(t)
	base.wantCode(t, 0)

	for _, tc := range []struct{ name, url, failure string }{
		{"wrong password", "http://admin:" + secret + "@" + host + "/k6", "401 Unauthorized: authorization failed"},
		{"unreachable", "http://" + freeLoopbackAddr(t) + "/k6", "connection refused"},
	} {
		r := invocation{args: args("-o", "influxdb="+tc.url), env: []string{"K6_INFLUXDB_PUSH_INTERVAL=100ms"}}.run(t)
		r.wantCode(t, 0)
		var warns []string
		for line := range strings.SplitSeq(r.stderr, "\n") {
			if strings.HasPrefix(line, "WARN influxdb") {
				warns = append(warns, line)
			}
		}
		if len(warns) != 2 || !strings.Contains(warns[0], tc.failure) || !strings.Contains(warns[1], "writes failed, losing") {
			t.Errorf("%s: WARN lines %q, want the first failure (%s) and the end-of-run count", tc.name, warns, tc.failure)
		}
		if strings.Contains(r.stdout+r.stderr, secret) {
			t.Errorf("%s: the password is printed:\n%s\n%s", tc.name, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout+r.stderr, "output: influxdb (") {
			t.Errorf("%s: the banner does not name the output:\n%s\n%s", tc.name, r.stdout, r.stderr)
		}
		if slack := r.elapsed - base.elapsed; slack.Seconds() > 2 {
			t.Errorf("%s: the run took %v, %v more than without the output", tc.name, r.elapsed, slack)
		}
	}
}

// TestInfluxDBOutputInterrupted stops a run with SIGINT while the push
// interval is far away: only the write at the end can land the data, and
// it holds every iteration the summary counts, with the run's --tag.
func TestInfluxDBOutputInterrupted(t *testing.T) {
	t.Parallel()
	srv := influxtest.Start(t, false)
	out := filepath.Join(t.TempDir(), "export.json")
	inv := invocation{
		args: []string{"run", "-q", "-o", "influxdb=" + srv.Base + "/interrupted",
			"--summary-export", out, "--tag", "testrun=interrupted", script("signal.js")},
		env: []string{"K6_INFLUXDB_PUSH_INTERVAL=1h"},
	}
	r := inv.interrupted(t)
	r.wantCode(t, 105)
	want := number(t, export(t, out), "metrics", "iterations", "count")
	if want < 5 {
		t.Fatalf("only %v iterations before the signal", want)
	}
	q := "SELECT count(value) FROM iterations WHERE testrun='interrupted'"
	if got := srv.Number(t, "interrupted", q, "count"); got != want {
		t.Errorf("InfluxDB has %v iterations, the summary %v", got, want)
	}
}
