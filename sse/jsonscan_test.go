package sse

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

var jsonSamples = []string{
	`{}`, `[]`, `{"a":1}`, ` { "a" : [ 1 , 2.5e-3 , -0 , true , false , null , "x" ] } `,
	`{"a":"\u00e9\n\"\\\/"}`, `"\ud83d\ude00"`, `0`, `-1.5E+10`, `{"a":{"b":{"c":[[]]}}}`,
	`{`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `01`, `1.`, `.5`, `-`, `1e`, `+1`,
	`tru`, `nul`, `"abc`, "\"a\x01\"", `"\q"`, `"\u12"`, `{"a":1}}`, `{"a":1} x`, `[1 2]`, `{"a" 1}`, `{1:2}`,
	"", " ", `NaN`, `{"a":1,"a":2}`,
}

// TestJSONValidity checks the scanner against encoding/json.
func TestJSONValidity(t *testing.T) {
	for _, s := range jsonSamples {
		if got, want := validJSON(s), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%q) = %v, encoding/json says %v", s, got, want)
		}
	}
}

// TestDecodeAny checks decoding against encoding/json.
func TestDecodeAny(t *testing.T) {
	for _, s := range jsonSamples {
		var want any
		if json.Unmarshal([]byte(s), &want) != nil {
			continue
		}
		got, ok := decodeAny(s)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("decodeAny(%q) = %#v, want %#v", s, got, want)
		}
	}
}

// TestLookupPath checks raw lookups by dot path.
func TestLookupPath(t *testing.T) {
	doc := `{"a": {"b": {"c": 12.5}}, "d": [1], "e": "s"}`
	cases := []struct {
		path []string
		want string
		ok   bool
	}{
		{[]string{"a", "b", "c"}, "12.5", true},
		{[]string{"e"}, `"s"`, true},
		{[]string{"a", "x"}, "", false},
		{[]string{"e", "x"}, "", false},
	}
	for _, tc := range cases {
		if got, ok := lookupPath(doc, tc.path); got != tc.want || ok != tc.ok {
			t.Errorf("%v: %q %v", tc.path, got, ok)
		}
	}
}

// FuzzJSONScanner checks that the scanner agrees with encoding/json on
// validity and values for any input.
func FuzzJSONScanner(f *testing.F) {
	for _, s := range jsonSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		valid := validJSON(s)
		if valid != json.Valid([]byte(s)) {
			t.Fatalf("validJSON(%q) = %v", s, valid)
		}
		if !valid {
			return
		}
		var want any
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			return // e.g. numbers out of float64 range
		}
		got, _ := decodeAny(s)
		if !reflect.DeepEqual(normalizeStrings(got), normalizeStrings(want)) {
			t.Fatalf("decodeAny(%q) = %#v, want %#v", s, got, want)
		}
	})
}

// normalizeStrings maps invalid UTF-8, which encoding/json replaces and the
// scanner keeps, to a common form.
func normalizeStrings(v any) any {
	switch x := v.(type) {
	case string:
		return validUTF8(x)
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = normalizeStrings(x[i])
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[validUTF8(k)] = normalizeStrings(e)
		}
		return out
	}
	return v
}

// validUTF8 replaces each invalid byte by U+FFFD, as encoding/json does.
func validUTF8(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += n
	}
	return b.String()
}
