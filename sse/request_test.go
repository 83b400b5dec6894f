package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// stringsReader returns a reader over s.
func stringsReader(s string) io.Reader { return strings.NewReader(s) }

// TestValidate checks that every problem is reported at once.
func TestValidate(t *testing.T) {
	r := &Request{Method: "GE T", URL: "ftp://x", Dialect: "xml", Timeout: -1, MaxEventSize: -1, Marks: map[string]Predicate{"m": nil}}
	err := r.Validate()
	if !errors.Is(err, ErrInvalidRequest) {
		t.Fatalf("error %v", err)
	}
	for _, want := range []string{"method", "url", "dialect", "timeout", "maxEventSize", `mark "m"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if err := (&Request{URL: "https://example.com/v1"}).Validate(); err != nil {
		t.Errorf("valid request: %v", err)
	}
}

// TestValidateURLAfterAnother checks that the URL remembered from the last
// request decides nothing about another one.
func TestValidateURLAfterAnother(t *testing.T) {
	for _, u := range []string{"http://a.test/x", "http://a.test/x", "ftp://a.test/x", "/x", "http://a.test/x", "https://", "https://b.test"} {
		bad := u == "ftp://a.test/x" || u == "/x" || u == "https://"
		if err := (&Request{URL: u}).Validate(); (err != nil) != bad {
			t.Errorf("%q: error %v, want one: %v", u, err, bad)
		}
	}
}

// TestDefaults checks the documented zero values.
func TestDefaults(t *testing.T) {
	r := (&Request{}).withDefaults()
	if r.Method != "GET" || r.Timeout != DefaultTimeout || r.IdleTimeout != DefaultIdleTimeout || r.MaxEventSize != 1<<20 || r.Dialect != DialectAuto {
		t.Errorf("%+v", r)
	}
	if (&Request{Dialect: "OpenAI"}).withDefaults().Dialect != DialectOpenAI {
		t.Error("dialect names are case-insensitive")
	}
	if (&Request{Body: []byte{}}).withDefaults().Method != "POST" {
		t.Error("a body should default to POST")
	}
}

// TestParseByteSize checks sizes.
func TestParseByteSize(t *testing.T) {
	cases := []struct {
		in   string
		want int
		bad  bool
	}{
		{"1MiB", 1 << 20, false}, {"512KiB", 512 << 10, false}, {"64kB", 64000, false}, {"65536", 65536, false},
		{"2.5MB", 2500000, false}, {"1 mib", 1 << 20, false}, {"10b", 10, false}, {"1M", 1 << 20, false},
		{"", 0, true}, {"-1", 0, true}, {"MiB", 0, true}, {"1XB", 0, true}, {"9999GiB", 0, true},
	}
	for _, tc := range cases {
		got, err := ParseByteSize(tc.in)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("%q: %d %v", tc.in, got, err)
		}
	}
}

// TestParseDialect checks dialect names.
func TestParseDialect(t *testing.T) {
	for in, want := range map[string]Dialect{"": DialectAuto, "OpenAI": DialectOpenAI, " raw ": DialectRaw, "business": DialectBusiness} {
		if got, err := ParseDialect(in); err != nil || got != want {
			t.Errorf("%q: %q %v", in, got, err)
		}
	}
	if _, err := ParseDialect("grpc"); !errors.Is(err, ErrInvalidRequest) {
		t.Errorf("grpc: %v", err)
	}
}

// TestMergeState checks deep merging.
func TestMergeState(t *testing.T) {
	dst := map[string]any{"a": map[string]any{"x": 1.0, "y": 2.0}, "b": []any{1.0}, "c": "keep"}
	delta := map[string]any{"a": map[string]any{"y": 3.0, "z": map[string]any{"k": true}}, "b": []any{2.0}, "d": nil}
	mergeState(dst, delta)
	want := map[string]any{"a": map[string]any{"x": 1.0, "y": 3.0, "z": map[string]any{"k": true}}, "b": []any{2.0}, "c": "keep", "d": nil}
	if !equalValues(dst, want) {
		t.Errorf("merged %v", dst)
	}
	delta["a"].(map[string]any)["z"].(map[string]any)["k"] = false
	if dst["a"].(map[string]any)["z"].(map[string]any)["k"] != true {
		t.Error("merge shares maps with the delta")
	}
}

// TestCost checks the pricing formula.
func TestCost(t *testing.T) {
	p := Pricing{InputPer1M: 3, OutputPer1M: 15, PerRequest: 0.01}
	if got := p.Cost(Usage{InputTokens: 1000, OutputTokens: 2000, ReasoningTokens: 500}); abs(got-(0.003+0.03+0.01)) > 1e-12 {
		t.Errorf("cost %v", got)
	}
}
