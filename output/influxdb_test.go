package output

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
	"github.com/usefullatency/usefullatency/internal/influxtest"
	"github.com/usefullatency/usefullatency/internal/syncbuf"
	"github.com/usefullatency/usefullatency/metrics"
)

// newInfluxForTest builds an influxdb output on url with env.
func newInfluxForTest(t *testing.T, url string, env map[string]string) (*InfluxDB, *syncbuf.Buffer) {
	t.Helper()
	log := &syncbuf.Buffer{}
	o, err := New("influxdb="+url, Params{Env: env, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	return o.(*InfluxDB), log
}

// TestInfluxDBRoundTrip writes samples through the output into a real
// influxd and reads them back with InfluxQL: the database is created,
// every sample is a point of its metric's measurement with its tags,
// value and timestamp (ns), url/vu/iter are typed fields, and names with
// characters line protocol escapes come back as they were.
func TestInfluxDBRoundTrip(t *testing.T) {
	t.Parallel()
	srv := influxtest.Start(t, false)
	o, log := newInfluxForTest(t, srv.Base+"/roundtrip", map[string]string{"K6_INFLUXDB_PUSH_INTERVAL": "20ms"})
	reqs := &metrics.Metric{Name: "http_reqs", Type: metrics.Counter}
	first := &metrics.Metric{Name: "usefulsse_first_text", Type: metrics.Trend}
	at := time.Unix(1_700_000_000, 123_456_789)
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	const n = 250
	for i := range n {
		o.AddSamples([]metrics.Sample{
			{Metric: reqs, Time: at.Add(time.Duration(i) * time.Millisecond), Value: 1,
				Tags: metrics.Tags{"method": "GET", "status": "200", "url": "http://x/a?b=1", "vu": "3", "iter": "7"}},
			{Metric: first, Time: at.Add(time.Duration(i) * time.Millisecond), Value: float64(i) + 0.25,
				Tags: metrics.Tags{"bucket": "qa", "name": "a,b=c d", "emptied": ""}, Metadata: metrics.Tags{"trace_id": "t\"1\\"}},
		})
	}
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	if log.String() != "" {
		t.Fatalf("warnings:\n%s\ninfluxd:\n%s", log, srv.Log())
	}
	db := "roundtrip"
	if got := srv.Number(t, db, "SELECT count(value) FROM http_reqs", "count"); got != n {
		t.Errorf("http_reqs: %v points, want %d", got, n)
	}
	if got := srv.Number(t, db, `SELECT sum(value) FROM usefulsse_first_text WHERE bucket = 'qa' AND "name" = 'a,b=c d'`, "sum"); got != n*(n-1)/2+0.25*n {
		t.Errorf("usefulsse_first_text{bucket=qa}: sum %v, want %v", got, n*(n-1)/2+0.25*n)
	}
	rows := srv.Query(t, db, "SELECT * FROM http_reqs ORDER BY time LIMIT 1")[0].Rows()
	want := map[string]string{"method": "GET", "status": "200", "url": "http://x/a?b=1", "vu": "3", "iter": "7", "value": "1",
		"time": "1700000000123456789"}
	for k, v := range want {
		if got := jsonText(rows[0][k]); got != v {
			t.Errorf("http_reqs first point: %s = %s, want %s (row %v)", k, got, v, rows[0])
		}
	}
	keys := map[string]string{}
	for _, r := range srv.Query(t, db, "SHOW FIELD KEYS FROM http_reqs")[0].Rows() {
		keys[jsonText(r["fieldKey"])] = jsonText(r["fieldType"])
	}
	if keys["url"] != "string" || keys["vu"] != "integer" || keys["iter"] != "integer" || keys["value"] != "float" {
		t.Errorf("http_reqs fields: %v, want url string, vu and iter integer, value float", keys)
	}
	tags := map[string]bool{}
	for _, r := range srv.Query(t, db, "SHOW TAG KEYS FROM http_reqs")[0].Rows() {
		tags[jsonText(r["tagKey"])] = true
	}
	if len(tags) != 2 || !tags["method"] || !tags["status"] {
		t.Errorf("http_reqs tag keys: %v, want method and status", tags)
	}
	row := srv.Query(t, db, "SELECT * FROM usefulsse_first_text LIMIT 1")[0].Rows()[0]
	if jsonText(row["trace_id"]) != `t"1\` || row["emptied"] != nil {
		t.Errorf("usefulsse_first_text: trace_id %v, emptied %v; want t\"1\\ and no emptied tag", row["trace_id"], row["emptied"])
	}
}

// jsonText is a query result cell as text.
func jsonText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	case nil:
		return "<nil>"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestInfluxDBPrecision writes with each K6_INFLUXDB_PRECISION: timestamps
// are cut to the unit, and InfluxDB stores them as such.
func TestInfluxDBPrecision(t *testing.T) {
	t.Parallel()
	srv := influxtest.Start(t, false)
	for i, tc := range []struct{ precision, want string }{
		{"ns", "5987654321"}, {"us", "5987654000"}, {"1ms", "5987000000"}, {"s", "5000000000"},
	} {
		db := fmt.Sprintf("prec%d", i)
		o, log := newInfluxForTest(t, srv.Base+"/"+db, map[string]string{"K6_INFLUXDB_PRECISION": tc.precision})
		_ = o.Start()
		o.AddSamples([]metrics.Sample{{Metric: &metrics.Metric{Name: "vus"}, Time: time.Unix(5, 987_654_321), Value: 3}})
		_ = o.Stop()
		if log.String() != "" {
			t.Fatalf("%s: %s", tc.precision, log)
		}
		row := srv.Query(t, db, "SELECT * FROM vus")[0].Rows()[0]
		if got := jsonText(row["time"]); got != tc.want {
			t.Errorf("precision %s: time %s ns, want %s", tc.precision, got, tc.want)
		}
	}
}

// TestInfluxDBWrongPassword writes to an influxd with authentication
// using a wrong password: one WARN line at the first failure, one at the
// end with the count, Stop returns nil, and the password is nowhere in the
// log. The right password (from the URL) writes.
func TestInfluxDBWrongPassword(t *testing.T) {
	t.Parallel()
	srv := influxtest.Start(t, true)
	const secret = "wrong-secret-pw"
	host := strings.TrimPrefix(srv.Base, "http://")
	o, log := newInfluxForTest(t, "http://"+influxtest.Admin+":"+secret+"@"+host+"/authdb", map[string]string{"K6_INFLUXDB_PUSH_INTERVAL": "20ms"})
	if strings.Contains(o.Description(), secret) {
		t.Errorf("the banner shows the password: %s", o.Description())
	}
	_ = o.Start()
	m := &metrics.Metric{Name: "iterations"}
	for i := range 5 { // one failed write per sample: several failures, one warning
		o.AddSamples([]metrics.Sample{{Metric: m, Time: time.Unix(int64(i), 0), Value: 1}})
		eventually.True(t, "the write failed", func() bool {
			o.statsMu.Lock()
			defer o.statsMu.Unlock()
			return o.failures > i
		})
	}
	if err := o.Stop(); err != nil {
		t.Fatalf("Stop: %v, want nil (a warning)", err)
	}
	out := log.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "401") || !strings.Contains(lines[0], "authorization failed") ||
		!strings.Contains(lines[1], "points") || !strings.HasPrefix(lines[1], "WARN influxdb") {
		t.Errorf("log:\n%s\nwant one WARN line naming the 401 and one end-of-run line", out)
	}
	if strings.Contains(out, secret) {
		t.Errorf("the log shows the password:\n%s", out)
	}

	ok, log := newInfluxForTest(t, "http://"+host+"/authdb", map[string]string{
		"K6_INFLUXDB_USERNAME": influxtest.Admin, "K6_INFLUXDB_PASSWORD": influxtest.AdminPassword})
	_ = ok.Start()
	ok.AddSamples([]metrics.Sample{{Metric: m, Time: time.Unix(9, 0), Value: 1}})
	_ = ok.Stop()
	if log.String() != "" || srv.Number(t, "authdb", "SELECT count(value) FROM iterations", "count") != 1 {
		t.Errorf("the right password (K6_INFLUXDB_*) did not write one point; log: %s", log)
	}
}

// TestInfluxDBSettings reports every invalid setting at once, and reads
// the database and a path prefix from the URL.
func TestInfluxDBSettings(t *testing.T) {
	_, err := New("influxdb=ftp://x/db", Params{Env: map[string]string{
		"K6_INFLUXDB_PUSH_INTERVAL": "-1s", "K6_INFLUXDB_CONCURRENT_WRITES": "0",
		"K6_INFLUXDB_TAGS_AS_FIELDS": "vu:long", "K6_INFLUXDB_INSECURE": "maybe", "K6_INFLUXDB_PRECISION": "h",
	}})
	for _, want := range []string{"URL", "PUSH_INTERVAL", "CONCURRENT_WRITES", "TAGS_AS_FIELDS", "INSECURE", "PRECISION"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not name %s", err, want)
		}
	}
	for _, tc := range []struct{ arg, base, db string }{
		{"", "http://localhost:8086", "k6"},
		{"http://h:1/mydb", "http://h:1", "mydb"},
		{"https://u:p@h/influx/db2/", "https://h/influx", "db2"},
	} {
		o, err := New("influxdb="+tc.arg, Params{})
		if err != nil {
			t.Fatal(err)
		}
		cfg := o.(*InfluxDB).cfg
		if cfg.base != tc.base || cfg.db != tc.db {
			t.Errorf("%q: base %q, db %q; want %q, %q", tc.arg, cfg.base, cfg.db, tc.base, tc.db)
		}
	}
}

// TestInfluxDBEscaping writes tag values and string fields with every
// character line protocol escapes (and some it cannot write) into a real
// influxd and reads them back: each comes back as it was, or, for a
// backslash before a space, as documented.
func TestInfluxDBEscaping(t *testing.T) {
	t.Parallel()
	srv := influxtest.Start(t, false)
	o, log := newInfluxForTest(t, srv.Base+"/esc", nil)
	_ = o.Start()
	cases := []struct{ in, tag, field string }{
		{"plain", "plain", "plain"},
		{"a,b", "a,b", "a,b"},
		{"a=b", "a=b", "a=b"},
		{"a b", "a b", "a b"},
		{`say "hi"`, `say "hi"`, `say "hi"`},
		{`C:\dir\file`, `C:\dir\file`, `C:\dir\file`},
		{`a\\b`, `a\\b`, `a\\b`},
		{`ends\`, `ends/`, `ends\`},
		{`a\ b`, `a/ b`, `a\ b`},
		{"line\nbreak", "line break", "line\nbreak"},
		{"ünï €", "ünï €", "ünï €"},
	}
	// Values in exponent form too, as strconv's 'g' writes them.
	values := []float64{1e21, 1.5e-7, -2.5, 123456789.125, 0, 1e-300, -1.7976931348623157e308, 42, 3.14, 7e100, 5}
	m := &metrics.Metric{Name: "esc"}
	for i, c := range cases {
		o.AddSamples([]metrics.Sample{{Metric: m, Time: time.Unix(100, int64(i)), Value: values[i],
			Tags: metrics.Tags{"t": c.in, "url": c.in}}})
	}
	_ = o.Stop()
	if log.String() != "" {
		t.Fatalf("warnings:\n%s\ninfluxd:\n%s", log, srv.Log())
	}
	rows := srv.Query(t, "esc", "SELECT * FROM esc ORDER BY time")[0].Rows()
	if len(rows) != len(cases) {
		t.Fatalf("%d points, want %d: %v", len(rows), len(cases), rows)
	}
	for i, c := range cases {
		if got := jsonText(rows[i]["t"]); got != c.tag {
			t.Errorf("tag %q read back as %q, want %q", c.in, got, c.tag)
		}
		if got := jsonText(rows[i]["url"]); got != c.field {
			t.Errorf("string field %q read back as %q, want %q", c.in, got, c.field)
		}
		if got, err := rows[i]["value"].(json.Number).Float64(); err != nil || got != values[i] {
			t.Errorf("value %v read back as %v (%v)", values[i], rows[i]["value"], err)
		}
	}
}

// BenchmarkInfluxDBWrite sends batches of 1,000 probe-like samples through
// the output into a real influxd (interval 100ms, every write included);
// cpu-ms/1000 is this process's CPU time (user and system, so encoding,
// buffering and HTTP, not the server's) per 1,000 samples.
func BenchmarkInfluxDBWrite(b *testing.B) {
	srv := influxtest.Start(b, false)
	log := &syncbuf.Buffer{}
	out, err := New("influxdb="+srv.Base+"/bench", Params{Env: map[string]string{"K6_INFLUXDB_PUSH_INTERVAL": "100ms"}, Log: log})
	if err != nil {
		b.Fatal(err)
	}
	m := &metrics.Metric{Name: "usefulsse_first_text"}
	tags := metrics.Tags{"bucket": "single_tool", "method": "POST", "name": "http://127.0.0.1:8099/v1/chat/completions",
		"scenario": "openai", "status": "200", "url": "http://127.0.0.1:8099/v1/chat/completions"}
	batch := make([]metrics.Sample, 1000)
	_ = out.Start()
	before := cpuTime(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		for j := range batch {
			batch[j] = metrics.Sample{Metric: m, Tags: tags, Time: time.Unix(1_700_000_000, int64(i*1000+j)), Value: float64(j)}
		}
		out.AddSamples(batch)
	}
	_ = out.Stop()
	b.ReportMetric(float64(cpuTime(b)-before)/float64(time.Millisecond)/float64(b.N), "cpu-ms/1000")
	if log.String() != "" {
		b.Fatal(log)
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestInfluxDBTagsAsFields sets K6_INFLUXDB_TAGS_AS_FIELDS: the listed
// tags become fields of their types in influxd, the others stay tags, and
// url (no longer listed) is a tag again.
func TestInfluxDBTagsAsFields(t *testing.T) {
	t.Parallel()
	srv := influxtest.Start(t, false)
	o, log := newInfluxForTest(t, srv.Base+"/taf", map[string]string{"K6_INFLUXDB_TAGS_AS_FIELDS": "status:int,ok:bool,ratio:float,name"})
	_ = o.Start()
	o.AddSamples([]metrics.Sample{{Metric: &metrics.Metric{Name: "http_reqs"}, Time: time.Unix(1, 0), Value: 1,
		Tags: metrics.Tags{"status": "200", "ok": "true", "ratio": "0.5", "name": "n", "url": "http://u", "method": "GET"}}})
	_ = o.Stop()
	if log.String() != "" {
		t.Fatal(log)
	}
	fields := map[string]string{}
	for _, r := range srv.Query(t, "taf", "SHOW FIELD KEYS FROM http_reqs")[0].Rows() {
		fields[jsonText(r["fieldKey"])] = jsonText(r["fieldType"])
	}
	want := map[string]string{"value": "float", "status": "integer", "ok": "boolean", "ratio": "float", "name": "string"}
	if len(fields) != len(want) {
		t.Errorf("fields %v, want %v", fields, want)
	}
	for k, v := range want {
		if fields[k] != v {
			t.Errorf("field %s is %q, want %q (all: %v)", k, fields[k], v, fields)
		}
	}
	var tags []string
	for _, r := range srv.Query(t, "taf", "SHOW TAG KEYS FROM http_reqs")[0].Rows() {
		tags = append(tags, jsonText(r["tagKey"]))
	}
	if strings.Join(tags, ",") != "method,url" {
		t.Errorf("tag keys %v, want method and url", tags)
	}
}

// TestInfluxDBAgreesWithParser writes random tag values and string fields
// made of the characters line protocol treats specially into a real
// influxd: each reads back as parseLP (the fuzz target's parser) reads
// the line the encoder wrote, so the fuzz target checks what the server
// does.
func TestInfluxDBAgreesWithParser(t *testing.T) {
	t.Parallel()
	srv := influxtest.Start(t, false)
	o, log := newInfluxForTest(t, srv.Base+"/agree", map[string]string{"K6_INFLUXDB_TAGS_AS_FIELDS": "f"})
	_ = o.Start()
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "a ,=\\\"\n\ré"
	runes := []rune(alphabet)
	m := &metrics.Metric{Name: "agree"}
	enc := lineEncoder{asFields: map[string]fieldKind{"f": fieldString}, divisor: 1}
	var want []lpLine
	for i := range 2000 {
		r := make([]rune, 1+rng.IntN(10))
		for j := range r {
			r[j] = runes[rng.IntN(len(runes))]
		}
		s := metrics.Sample{Metric: m, Time: time.Unix(100, int64(i)), Value: float64(i), Tags: metrics.Tags{"t": string(r), "f": string(r)}}
		line, _ := enc.appendPoint(nil, &s)
		p, err := parseLP(strings.TrimSuffix(string(line), "\n"))
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		want = append(want, p)
		o.AddSamples([]metrics.Sample{s})
	}
	_ = o.Stop()
	if log.String() != "" {
		t.Fatalf("warnings:\n%s\ninfluxd:\n%s", log, srv.Log())
	}
	rows := srv.Query(t, "agree", "SELECT * FROM agree ORDER BY time")[0].Rows()
	if len(rows) != len(want) {
		t.Fatalf("%d points, want %d", len(rows), len(want))
	}
	for i, p := range want {
		tag := "<nil>"
		if len(p.tags) == 1 {
			tag = p.tags[0][1]
		}
		if got := jsonText(rows[i]["t"]); got != tag {
			t.Errorf("point %d: tag read back as %q by influxd, %q by parseLP", i, got, tag)
		}
		if got := jsonText(rows[i]["f"]); got != p.fields["f"] {
			t.Errorf("point %d: field read back as %q by influxd, %q by parseLP", i, got, p.fields["f"])
		}
	}
}
