package sse

import (
	"reflect"
	"sort"
	"testing"
)

// completed lists the paths a tracker recorded.
func completed(t *JSONTracker) []string {
	out := make([]string, 0, len(t.done))
	for p := range t.done {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// TestJSONTracker checks which paths are complete after a text, fed whole
// and byte by byte.
func TestJSONTracker(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"complete object", `{"a": "x", "b": {"c": 1, "d": [true, null]}, "e": -1.5e3}`, []string{"a", "b", "b.c", "b.d", "b.d.0", "b.d.1", "e"}},
		{"string open", `{"a": "x", "b": "unfinis`, []string{"a"}},
		{"number open", `{"a": 12`, nil},
		{"number closed by comma", `{"a": 12,`, []string{"a"}},
		{"object open", `{"a": {"b": 1, "c": 2`, []string{"a.b"}},
		{"escaped key and value", `{"k\"1": "v\"}", "\u0041": "é\n"}`, []string{"A", `k"1`}},
		{"prefix skipped", "Sure! ```json\n{\"decision\": \"refund\"}\n```", []string{"decision"}},
		{"braces in strings", `{"a": "{\"x\": 1}", "b": 2}`, []string{"a", "b"}},
		{"array around object", `[{"a": 1}]`, []string{"a"}},
		{"second object", `{"a": 1} and {"b": 2}`, []string{"a", "b"}},
		{"invalid then valid", `{"a" 1} {"b": "ok"}`, []string{"b"}},
		{"empty containers", `{"a": {}, "b": []}`, []string{"a", "b"}},
		{"nested arrays", `{"m": [[1, 2], [3]]}`, []string{"m", "m.0", "m.0.0", "m.0.1", "m.1", "m.1.0"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			whole := NewJSONTracker(nil)
			whole.Write(tc.text)
			bytewise := NewJSONTracker(nil)
			for i := range len(tc.text) {
				bytewise.Write(tc.text[i : i+1])
			}
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if got := completed(whole); !reflect.DeepEqual(got, want) {
				t.Errorf("whole: %q, want %q", got, want)
			}
			if got := completed(bytewise); !reflect.DeepEqual(got, want) {
				t.Errorf("bytewise: %q, want %q", got, want)
			}
		})
	}
}

// TestJSONTrackerWanted checks that a tracker with wanted paths records only
// those.
func TestJSONTrackerWanted(t *testing.T) {
	tr := NewJSONTracker([]string{"b.c", "z"})
	tr.Write(`{"a": 1, "b": {"c": "x"}}`)
	if got := completed(tr); !reflect.DeepEqual(got, []string{"b.c"}) || !tr.Complete("b.c") || tr.Complete("a") {
		t.Errorf("recorded %q", got)
	}
}

// FuzzJSONTracker checks that any text, in any split, never panics and
// that a split never changes the result.
func FuzzJSONTracker(f *testing.F) {
	f.Add(`{"a": "x", "b": {"c": [1, 2]}}`, uint8(3))
	f.Add(`x{"\u00e9": tru}{"k":"v"}`, uint8(1))
	f.Fuzz(func(t *testing.T, text string, split uint8) {
		whole := NewJSONTracker(nil)
		whole.Write(text)
		parts := NewJSONTracker(nil)
		step := int(split%7) + 1
		for i := 0; i < len(text); i += step {
			parts.Write(text[i:min(i+step, len(text))])
		}
		if !reflect.DeepEqual(completed(whole), completed(parts)) {
			t.Fatalf("split changed the result: %q vs %q", completed(whole), completed(parts))
		}
	})
}
