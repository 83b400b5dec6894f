package web

import (
	"strings"
	"testing"
)

func TestUTF8Decoder(t *testing.T) {
	const fffd = "\uFFFD"
	cases := []struct {
		name      string
		in        string
		ignoreBOM bool
		want      string
	}{
		{"ascii", "hello", false, "hello"},
		{"multi-byte", "h\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", false, "hé € 😀"},
		{"BOM stripped", "\xef\xbb\xbfA", false, "A"},
		{"BOM kept with ignoreBOM", "\xef\xbb\xbfA", true, "\uFEFFA"},
		{"only the first BOM", "\xef\xbb\xbf\xef\xbb\xbfA", false, "\uFEFFA"},
		{"lone continuation", "a\x80b", false, "a" + fffd + "b"},
		{"truncated 3-byte then ascii: one U+FFFD", "\xe2\x82A", false, fffd + "A"},
		{"truncated at the end", "A\xf0\x9f\x98", false, "A" + fffd},
		{"overlong 2-byte: two U+FFFD", "\xc0\xaf", false, fffd + fffd},
		{"surrogate D800: three U+FFFD", "\xed\xa0\x80", false, fffd + fffd + fffd},
		{"past U+10FFFF", "\xf4\x90\x80\x80", false, strings.Repeat(fffd, 4)},
		{"FF byte", "\xff", false, fffd},
	}
	for _, tc := range cases {
		got, err := newUTF8Decoder(false, tc.ignoreBOM).Decode([]byte(tc.in), false)
		if err != nil || got != tc.want {
			t.Errorf("%s: Decode(%q) = %q, %v; want %q", tc.name, tc.in, got, err, tc.want)
		}
		_, ferr := newUTF8Decoder(true, tc.ignoreBOM).Decode([]byte(tc.in), false)
		if wantErr := strings.Contains(tc.want, fffd); (ferr != nil) != wantErr {
			t.Errorf("%s: fatal Decode(%q) error = %v, want error %v", tc.name, tc.in, ferr, wantErr)
		}
	}
}

func TestUTF8DecoderStream(t *testing.T) {
	d := newUTF8Decoder(true, false)
	in := []byte("\xef\xbb\xbfé😀x")
	var got strings.Builder
	for i := range in { // one byte at a time: every sequence is split
		s, err := d.Decode(in[i:i+1], true)
		if err != nil {
			t.Fatalf("byte %d: %v", i, err)
		}
		got.WriteString(s)
	}
	if s, err := d.Decode(nil, false); err != nil || s != "" {
		t.Fatalf("end of stream = %q, %v", s, err)
	}
	if got.String() != "é😀x" {
		t.Fatalf("streamed = %q", got.String())
	}
	if _, err := d.Decode([]byte("\xe2\x82"), true); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Decode(nil, false); err == nil {
		t.Fatal("a stream ending inside a sequence must fail when fatal")
	}
}
