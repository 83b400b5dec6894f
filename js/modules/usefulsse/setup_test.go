package usefulsse

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// TestConnectionSetupMetrics runs a script that opens a plain connection,
// reuses it, and opens a TLS one: res.timings.connecting and
// tls_handshaking say what each request set up (null when nothing), and
// usefulsse_connecting and usefulsse_tls_handshaking get one sample per
// connection opened, tagged like the request's other samples.
func TestConnectionSetupMetrics(t *testing.T) {
	registerOnce.Do(func() { modules.Register(Name, New()) })
	stream := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: hi\n\nevent: done\ndata: x\n\n")
	})
	plain, secure := httptest.NewServer(stream), httptest.NewTLSServer(stream)
	t.Cleanup(plain.Close)
	t.Cleanup(secure.Close)
	src := fmt.Sprintf(`import usefulsse from 'k6/x/usefulsse';
function want(ok, what, r) {
  if (!ok) throw new Error(what + ': ' + JSON.stringify(r.timings) + ' ' + r.error);
}
export default function () {
  let r = usefulsse.get(%q, {dialect: 'raw', tags: {conn: 'new'}});
  want(r.timings.connecting > 0 && r.timings.tls_handshaking === null, 'a new plain connection', r);
  r = usefulsse.get(%q, {dialect: 'raw', tags: {conn: 'reused'}});
  want(r.timings.connecting === null && r.timings.tls_handshaking === null, 'a reused connection', r);
  r = usefulsse.get(%q, {dialect: 'raw', tags: {conn: 'tls'}});
  want(r.timings.connecting > 0 && r.timings.tls_handshaking > 0, 'a new TLS connection', r);
}
`, plain.URL, plain.URL, secure.URL)
	r := jstest.Run(context.Background(), t, src, 1, func(run *modules.Run) { run.InsecureSkipTLSVerify = true })
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	for _, c := range []struct {
		metric string
		conns  string // the conn tag of each sample, in order
	}{
		{metrics.ProbeConnecting, "new tls"},
		{metrics.ProbeTLSHandshaking, "tls"},
	} {
		var conns []string
		for _, s := range jstest.Of(r.Samples, c.metric) {
			conns = append(conns, s.Tags["conn"])
			if s.Value <= 0 || s.Metric.Type != metrics.Trend || s.Metric.Contains != metrics.Time {
				t.Errorf("%s sample %+v: want a positive time in a Trend", c.metric, s)
			}
			if s.Tags["scenario"] != "default" || s.Tags["method"] != "GET" || s.Tags["status"] != "200" || s.Tags["name"] == "" {
				t.Errorf("%s sample tags %v: want the request's tags", c.metric, s.Tags)
			}
		}
		if got := strings.Join(conns, " "); got != c.conns {
			t.Errorf("%s samples of the requests tagged %q, want %q", c.metric, got, c.conns)
		}
	}
}
