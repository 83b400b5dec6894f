package output

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// lpLine is a line of line protocol as InfluxDB 1.x reads it.
type lpLine struct {
	measurement string
	tags        [][2]string
	fields      map[string]any // float64, int64, bool or string
	timestamp   int64
}

// parseLP reads one line (without its newline) with InfluxDB 1.x's rules,
// written apart from the encoder: a backslash makes the next byte part of
// the token; in names and tag values `\,` `\=` `\ ` stand for the
// character; a string field is quoted, with `\"` and `\\` unescaped; a
// number field is a float, or an integer with an i suffix.
func parseLP(line string) (lpLine, error) {
	out := lpLine{fields: map[string]any{}}
	if line == "" || line[0] == '#' || strings.ContainsAny(line[:1], " ,") {
		return out, errors.New("empty line, comment, or missing measurement")
	}
	tok, rest, sep := scanToken(line, ", ")
	out.measurement = unescapeName(tok)
	for sep == ',' {
		var k, v string
		k, rest, sep = scanToken(rest, "=")
		if sep != '=' || k == "" {
			return out, errors.New("tag without '='")
		}
		v, rest, sep = scanToken(rest, ", ")
		if v == "" {
			return out, errors.New("empty tag value")
		}
		out.tags = append(out.tags, [2]string{unescapeName(k), unescapeName(v)})
	}
	if sep != ' ' {
		return out, errors.New("no fields")
	}
	for {
		k, r, s := scanToken(rest, "=")
		if s != '=' || k == "" {
			return out, errors.New("field without '='")
		}
		key := unescapeName(k)
		if _, dup := out.fields[key]; dup {
			return out, errors.New("duplicate field " + key)
		}
		v, r, err := scanFieldValue(r)
		if err != nil {
			return out, err
		}
		out.fields[key] = v
		if r == "" {
			return out, errors.New("no timestamp")
		}
		if r[0] == ' ' {
			rest = r[1:]
			break
		}
		rest = r[1:] // ','
	}
	ts, err := strconv.ParseInt(rest, 10, 64)
	if err != nil {
		return out, errors.New("bad timestamp " + strconv.Quote(rest))
	}
	out.timestamp = ts
	return out, nil
}

// scanToken returns s up to the first unescaped byte of stops, the rest
// after it, and that byte (0 at the end of s).
func scanToken(s, stops string) (tok, rest string, sep byte) {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\':
			i++
		case strings.IndexByte(stops, s[i]) >= 0:
			return s[:i], s[i+1:], s[i]
		}
	}
	return s, "", 0
}

// unescapeName undoes the escapes of names and tag values.
func unescapeName(s string) string {
	return strings.NewReplacer(`\,`, ",", `\=`, "=", `\ `, " ").Replace(s)
}

// scanFieldValue reads a field value and returns what follows it (from
// its ',' or ' ').
func scanFieldValue(s string) (any, string, error) {
	if strings.HasPrefix(s, `"`) {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				if i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				b.WriteByte(s[i])
			case '"':
				return b.String(), s[i+1:], nil
			default:
				b.WriteByte(s[i])
			}
		}
		return nil, "", errors.New("unterminated string")
	}
	end := strings.IndexAny(s, ", ")
	if end < 0 {
		return nil, "", errors.New("field without end")
	}
	v, rest := s[:end], s[end:]
	switch {
	case v == "true" || v == "false":
		return v == "true", rest, nil
	case strings.HasSuffix(v, "i"):
		n, err := strconv.ParseInt(v[:len(v)-1], 10, 64)
		return n, rest, err
	}
	f, err := strconv.ParseFloat(v, 64)
	if err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
		err = errors.New("NaN or Inf field")
	}
	return f, rest, err
}

// encodeOne encodes one sample with the default tags-as-fields.
func encodeOne(t testing.TB, s metrics.Sample) (string, bool) {
	t.Helper()
	fields, err := parseTagsAsFields("vu:int,iter:int,url")
	if err != nil {
		t.Fatal(err)
	}
	enc := lineEncoder{asFields: fields, divisor: 1}
	b, ok := enc.appendPoint(nil, &s)
	return string(b), ok
}

func TestInfluxLineProtocol(t *testing.T) {
	reqs := &metrics.Metric{Name: "http_reqs"}
	at := time.Unix(1700000000, 123456789)
	for _, tc := range []struct {
		name     string
		tags     metrics.Tags
		metadata metrics.Tags
		value    float64
		want     string
	}{
		{"no tags", nil, nil, 1, "http_reqs value=1 1700000000123456789\n"},
		{"tags sorted", metrics.Tags{"status": "200", "method": "GET"}, nil, 1,
			"http_reqs,method=GET,status=200 value=1 1700000000123456789\n"},
		{"special characters escaped", metrics.Tags{"na me": "a,b=c d"}, nil, 0.5,
			`http_reqs,na\ me=a\,b\=c\ d value=0.5 1700000000123456789` + "\n"},
		{"empty tag value left out", metrics.Tags{"group": "", "name": "x"}, nil, 2,
			"http_reqs,name=x value=2 1700000000123456789\n"},
		{"tags as fields typed", metrics.Tags{"vu": "3", "iter": "41", "url": `http://h/"q"\x`, "name": "n"}, nil, 7,
			`http_reqs,name=n value=7,iter=41i,url="http://h/\"q\"\\x",vu=3i 1700000000123456789` + "\n"},
		{"int field that is no int is a string", metrics.Tags{"vu": "x"}, nil, 1,
			`http_reqs value=1,vu="x" 1700000000123456789` + "\n"},
		{"metadata are fields", nil, metrics.Tags{"trace_id": "abc", "vu": "2"}, 1,
			`http_reqs value=1,trace_id="abc",vu=2i 1700000000123456789` + "\n"},
		{"time and value keys skipped", metrics.Tags{"time": "x"}, metrics.Tags{"value": "y"}, 1,
			"http_reqs value=1 1700000000123456789\n"},
		{"large and small floats", nil, nil, 1e21, "http_reqs value=1e+21 1700000000123456789\n"},
		{"unrepresentable backslash", metrics.Tags{"a": `x\`, "b": `y\ z`}, nil, 1,
			`http_reqs,a=x/,b=y/\ z value=1 1700000000123456789` + "\n"},
		{"line break", metrics.Tags{"a": "x\ny"}, nil, 1,
			`http_reqs,a=x\ y value=1 1700000000123456789` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := encodeOne(t, metrics.Sample{Metric: reqs, Tags: tc.tags, Metadata: tc.metadata, Time: at, Value: tc.value})
			if !ok || got != tc.want {
				t.Fatalf("got %q (%v), want %q", got, ok, tc.want)
			}
			if _, err := parseLP(strings.TrimSuffix(got, "\n")); err != nil {
				t.Fatalf("%q does not parse: %v", got, err)
			}
		})
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got, ok := encodeOne(t, metrics.Sample{Metric: reqs, Time: at, Value: v}); ok || got != "" {
			t.Errorf("value %v: wrote %q, want nothing", v, got)
		}
	}
}

func TestInfluxTagsAsFieldsSetting(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]fieldKind
		err  bool
	}{
		{"vu:int,iter:int,url", map[string]fieldKind{"vu": fieldInt, "iter": fieldInt, "url": fieldString}, false},
		{" a:float , b:bool,c:string,", map[string]fieldKind{"a": fieldFloat, "b": fieldBool, "c": fieldString}, false},
		{"", map[string]fieldKind{}, false},
		{"a:long", nil, true},
		{":int", nil, true},
	} {
		got, err := parseTagsAsFields(tc.in)
		if (err != nil) != tc.err || len(got) != len(tc.want) {
			t.Errorf("%q: %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.err)
			continue
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%q: %s is %d, want %d", tc.in, k, got[k], v)
			}
		}
	}
}

// FuzzInfluxLine checks that every sample makes one line InfluxDB can
// parse, that names and tag values without a backslash or line break come
// back exactly, and that string fields always do.
func FuzzInfluxLine(f *testing.F) {
	f.Add("name", "a,b=c d", "url", `http://x/"y"\`, "meta\nline", 1.5, int64(1))
	f.Add("k", `\`, "vu", "12", "", 0.0, int64(-5))
	f.Add(`\ `, "\r", "iter", "x", `\`, -1e-300, int64(1e18))
	reqs := &metrics.Metric{Name: "http_reqs"}
	f.Fuzz(func(t *testing.T, tagKey, tagValue, fieldTag, fieldValue, meta string, value float64, ns int64) {
		s := metrics.Sample{
			Metric:   reqs,
			Tags:     metrics.Tags{tagKey: tagValue, fieldTag: fieldValue},
			Metadata: metrics.Tags{"trace": meta},
			Time:     time.Unix(0, ns),
			Value:    value,
		}
		enc := lineEncoder{asFields: map[string]fieldKind{fieldTag: fieldString}, divisor: 1}
		b, ok := enc.appendPoint(nil, &s)
		if !ok {
			if !math.IsNaN(value) && !math.IsInf(value, 0) {
				t.Fatalf("value %v skipped", value)
			}
			return
		}
		line := string(b)
		if !strings.HasSuffix(line, "\n") {
			t.Fatalf("%q: no final newline", line)
		}
		p, err := parseLP(line[:len(line)-1])
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if p.fields["value"] != value || p.timestamp != ns || p.measurement != "http_reqs" {
			t.Fatalf("%q: read %+v", line, p)
		}
		if p.fields["trace"] != meta {
			t.Fatalf("%q: metadata %q read as %q", line, meta, p.fields["trace"])
		}
		plain := func(s string) bool { return !strings.ContainsAny(s, "\\\n\r") }
		if fieldTag != "" && fieldTag != "time" && fieldTag != "value" && fieldTag != "trace" && plain(fieldTag) && p.fields[fieldTag] != fieldValue {
			t.Fatalf("%q: string field %q read as %q", line, fieldValue, p.fields[fieldTag])
		}
		if tagKey == fieldTag || tagKey == "" || tagKey == "time" || tagValue == "" {
			return
		}
		if len(p.tags) != 1 {
			t.Fatalf("%q: tags %v, want 1", line, p.tags)
		}
		if plain(tagKey) && plain(tagValue) && (p.tags[0][0] != tagKey || p.tags[0][1] != tagValue) {
			t.Fatalf("%q: tag %q=%q read as %q", line, tagKey, tagValue, p.tags[0])
		}
	})
}

// BenchmarkInfluxLine encodes 1,000 samples with the tags of a probe
// request (six tags, url as a field): the cost of the output per 1,000
// samples, without the HTTP request.
func BenchmarkInfluxLine(b *testing.B) {
	m := &metrics.Metric{Name: "usefulsse_first_text"}
	tags := metrics.Tags{"bucket": "single_tool", "method": "POST", "name": "http://127.0.0.1:8099/v1/chat/completions",
		"scenario": "openai", "status": "200", "url": "http://127.0.0.1:8099/v1/chat/completions"}
	samples := make([]metrics.Sample, 1000)
	for i := range samples {
		samples[i] = metrics.Sample{Metric: m, Tags: tags, Time: time.Unix(1_700_000_000, int64(i)), Value: 1234.5 + float64(i)}
	}
	fields, _ := parseTagsAsFields("vu:int,iter:int,url")
	enc := lineEncoder{asFields: fields, divisor: 1}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = buf[:0]
		for i := range samples {
			buf, _ = enc.appendPoint(buf, &samples[i])
		}
	}
	b.ReportMetric(float64(len(buf))/1000, "bytes/sample")
}
