package usefulsse

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/grafana/sobek"
)

// TestJSONBodyAsExported encodes bodies walking them directly and checks
// each against encoding/json's encoding of the exported value, byte for
// byte; bodies the walk does not take come out the same through the
// exported path.
func TestJSONBodyAsExported(t *testing.T) {
	rt := sobek.New()
	direct := []string{
		`({bucket: 'qa', question: 'Can I return my order?'})`,
		`({z: 1, a: 2, m: {y: [1, 2, {b: true, a: null}], x: undefined}, '': 'empty key', 'é': 'key'})`,
		`({s: "quote \" backslash \\ slash / <tag> & amp \u2028 \u2029 \u0001 \u001f \b \f \n \r \t é 😀 \ud800 end"})`,
		`({n: [0, -0, 1, -1, 0.1, 1.5, 2**53, 2**63, -(2**31), 1e20, 1e21, 1.5e300, 1e-6, 1e-7, 5e-324, 123456789.125]})`,
		`[1, 'two', [3], {four: 4}, null, undefined, true, false]`,
		`(() => { const a = [1, , 3]; a.length = 5; return {a}; })()`,
		`(() => { class P { constructor() { this.b = 2; this.a = 1; } } return new P(); })()`,
		`({"10": "ten", "9": "nine", "b": 1, "B": 2})`,
		`({})`,
		`[]`,
	}
	for _, src := range direct {
		v, err := rt.RunString(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		want, err := json.Marshal(v.Export())
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got, ok := appendJSON(nil, rt, v, 0)
		if !ok || string(got) != string(want) {
			t.Errorf("%s:\n got %s (ok %v)\nwant %s", src, got, ok, want)
		}
		body, err := requestBody(rt, v, http.Header{})
		if err != nil || string(body) != string(want) {
			t.Errorf("%s: requestBody %s, %v", src, body, err)
		}
	}
	exported := []string{
		`({when: new Date(0)})`,
		`({n: NaN})`,
		`({n: [Infinity]})`,
		`(() => { const o = {}; o.self = o; return o; })()`,
		`({f: () => 1})`,
		`({big: 10n})`,
		`({m: new Map([[1, 2]])})`,
		`({u: new Uint8Array([1, 2])})`,
	}
	for _, src := range exported {
		v, err := rt.RunString(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got, ok := appendJSON(nil, rt, v, 0); ok {
			t.Errorf("%s: encoded directly as %s, want the exported path", src, got)
		}
		want, wantErr := json.Marshal(v.Export())
		body, err := requestBody(rt, v, http.Header{})
		if (err != nil) != (wantErr != nil) || string(body) != string(want) {
			t.Errorf("%s: requestBody %s, %v; want %s, %v", src, body, err, want, wantErr)
		}
	}
}

// BenchmarkJSONBody measures the body of bench/streams.js.
func BenchmarkJSONBody(b *testing.B) {
	rt := sobek.New()
	v, err := rt.RunString(`({bucket: 'qa', question: 'Can I return my order?'})`)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := requestBody(rt, v, http.Header{}); err != nil {
			b.Fatal(err)
		}
	}
}
