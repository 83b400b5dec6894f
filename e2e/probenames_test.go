package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/summary"
)

// TestProbeNamesReachSummaryAndReport runs the probe and checks that every
// metric metrics.ProbeMetrics declares is what the module registered and
// what the summary's STREAMING block lists, and that each moment of
// metrics.ProbeMoments has a time in the export's per-bucket breakdown and
// the same time in the HTML report's bucket table: the module, the summary
// and the report all read the names from one place. One stream goes over
// TLS, for usefulsse_tls_handshaking.
func TestProbeNamesReachSummaryAndReport(t *testing.T) {
	t.Parallel()
	srv, tlsSrv := sseServer(t), sseTLSServer(t)
	dir := t.TempDir()
	out, report := filepath.Join(dir, "export.json"), filepath.Join(dir, "report.html")
	r := invocation{args: []string{"run", "-q", "--summary-export", out, "-o", "html=" + report, script("usefulsse/probe.js")},
		env: []string{"SSE_URL=" + srv.URL, "SSE_TLS_URL=" + tlsSrv.URL}}.run(t)
	r.wantCode(t, 0)
	exp := export(t, out)

	streaming := textBlock(r.stdout, "STREAMING")
	for _, s := range metrics.ProbeMetrics() {
		object(t, exp, "metrics", s.Name)
		if !regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(s.Name) + `\.{3,}: `).MatchString(streaming) {
			t.Errorf("the STREAMING block lacks %s:\n%s", s.Name, streaming)
		}
	}

	page, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	qa := bucketTable(t, string(page), "qa")
	var head, p50 strings.Builder
	head.WriteString("<tr><th></th>")
	p50.WriteString("<tr><th>p50</th>")
	for _, m := range metrics.ProbeMoments() {
		v := number(t, exp, "usefulsse_buckets", "qa", m.Label, "p50")
		head.WriteString("<th>" + m.Label + "</th>")
		p50.WriteString(`<td class="num">` + summary.FormatTime(v, "") + "</td>")
	}
	for _, row := range []string{head.String() + "</tr>", p50.String() + "</tr>"} {
		if !strings.Contains(qa, row) {
			t.Errorf("the report's qa table lacks %s:\n%s", row, qa)
		}
	}
}

// textBlock returns the lines of a TOTAL RESULTS block of a text summary,
// from its title to the blank line that ends it.
func textBlock(summaryText, title string) string {
	_, after, ok := strings.Cut(summaryText, " "+title+"\n")
	if !ok {
		return ""
	}
	block, _, _ := strings.Cut(after, "\n\n")
	return block
}

// bucketTable returns the HTML of a bucket's percentile table in the report.
func bucketTable(t *testing.T, page, bucket string) string {
	t.Helper()
	_, after, ok := strings.Cut(page, `<h3 class="bucket-name">`+bucket+`</h3>`)
	if !ok {
		t.Fatalf("the report has no bucket %q", bucket)
	}
	table, _, _ := strings.Cut(after, "</table>")
	return table
}

// TestProbeTransportSwitch runs the probe's example through net/http
// (--probe-transport nethttp, and the environment variable): the streams
// succeed and still carry kernel stamps, so read lag is measured.
func TestProbeTransportSwitch(t *testing.T) {
	t.Parallel()
	srv := sseServer(t)
	for _, inv := range []invocation{
		{args: []string{"run", "-q", "--probe-transport", "nethttp"}, env: []string{"SSE_URL=" + srv.URL}},
		{args: []string{"run", "-q"}, env: []string{"SSE_URL=" + srv.URL, "USEFULLATENCY_PROBE_TRANSPORT=nethttp"}},
	} {
		out := filepath.Join(t.TempDir(), "export.json")
		inv.args = append(inv.args, "--summary-export", out, script("usefulsse/probe.js"))
		r := inv.run(t)
		r.wantCode(t, 0)
		exp := export(t, out)
		object(t, exp, "metrics", "usefulsse_first_text")
		if runtime.GOOS == "linux" {
			object(t, exp, "metrics", "usefulsse_read_lag")
		}
	}
}
