package jsonstr

import (
	"bytes"
	"encoding/json"
	"testing"
)

// cases holds the strings both modes must quote as encoding/json does.
var cases = []string{
	"", "plain", `quote " backslash \ slash /`, "<tag> & amp", "\u2028 \u2029 end", "\x00\x01\x1f\x7f",
	"\b\f\n\r\t", "é 😀 中文", "bad \xff utf-8 \xc3", "\xed\xa0\x80 surrogate",
}

// TestAppendAsEncodingJSON compares Append with encoding/json, escaping
// HTML and not, byte for byte.
func TestAppendAsEncodingJSON(t *testing.T) {
	for _, s := range cases {
		html, _ := json.Marshal(s)
		var plain bytes.Buffer
		enc := json.NewEncoder(&plain)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		for _, tc := range []struct {
			html bool
			want string
		}{{true, string(html)}, {false, string(bytes.TrimSuffix(plain.Bytes(), []byte("\n")))}} {
			if got := string(Append(nil, s, tc.html)); got != tc.want {
				t.Errorf("%q (html %v): %s, want %s", s, tc.html, got, tc.want)
			}
		}
	}
}

// FuzzAppend checks that any string comes out as the JSON string of itself
// (invalid UTF-8 replaced), as encoding/json reads it back.
func FuzzAppend(f *testing.F) {
	for _, s := range cases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := Append(nil, s, true); !bytes.Equal(got, want) {
			t.Fatalf("%q: %s, want %s", s, got, want)
		}
	})
}
