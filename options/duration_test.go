package options

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want time.Duration
	}{
		{"go minutes and seconds", "1m30s", 90 * time.Second},
		{"go milliseconds", "250ms", 250 * time.Millisecond},
		{"go negative", "-2h", -2 * time.Hour},
		{"go fractional", "1.5s", 1500 * time.Millisecond},
		{"zero", "0", 0},
		{"zero seconds", "0s", 0},
		{"bare integer is milliseconds", "1500", 1500 * time.Millisecond},
		{"bare decimal is milliseconds", "0.5", 500 * time.Microsecond},
		{"bare leading dot", ".25", 250 * time.Microsecond},
		{"bare negative", "-100", -100 * time.Millisecond},
		{"one day", "1d", 24 * time.Hour},
		{"day prefix with rest", "1d2h30m", 26*time.Hour + 30*time.Minute},
		{"negative days", "-2d1h", -49 * time.Hour},
		{"surrounding spaces", " 10s ", 10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseDuration(tt.in)
			if err != nil || got != tt.want {
				t.Fatalf("ParseDuration(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseDurationErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "empty duration"},
		{"unknown unit", "10x", "invalid duration"},
		{"day then sign", "1d-2h", "invalid duration"},
		{"fractional days", "1.5d", "invalid duration"},
		{"days overflow", "200000d", "out of range"},
		{"days plus rest overflow", "106751d23h59m59s", "out of range"},
		{"milliseconds overflow", "1e30", "invalid duration"},
		{"huge bare number", strings.Repeat("9", 30), "out of range"},
		{"words", "soon", "invalid duration"},
		{"hex float", "0x1p3", "invalid duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDuration(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseDuration(%q) error = %v, want %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestDurationJSON(t *testing.T) {
	tests := []struct {
		name string
		json string
		want Duration
	}{
		{"string", `"1m30s"`, Duration(90 * time.Second)},
		{"day string", `"1d"`, Duration(24 * time.Hour)},
		{"integer milliseconds", `1500`, Duration(1500 * time.Millisecond)},
		{"fractional milliseconds", `2.5`, Duration(2500 * time.Microsecond)},
		{"null keeps value", `null`, Duration(time.Second)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Duration(time.Second)
			if err := json.Unmarshal([]byte(tt.json), &d); err != nil || d != tt.want {
				t.Fatalf("Unmarshal(%s) = %v, %v; want %v", tt.json, d, err, tt.want)
			}
		})
	}
	for _, bad := range []string{`"nope"`, `true`, `{}`, `1e400`} {
		var d Duration
		if err := json.Unmarshal([]byte(bad), &d); err == nil {
			t.Errorf("Unmarshal(%s) succeeded, want an error", bad)
		}
	}
}

func TestDurationMarshalJSON(t *testing.T) {
	b, err := json.Marshal(struct{ D Duration }{Duration(90 * time.Second)})
	if err != nil || string(b) != `{"D":"1m30s"}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	if s := Duration(26 * time.Hour).String(); s != "26h0m0s" {
		t.Fatalf("String() = %q", s)
	}
}

// FuzzParseDuration checks that ParseDuration never panics and that every
// accepted duration reads back from its String form.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"1m30s", "1d2h", "1500", "0.5", "-1d", "9223372036854775807ns", "1d-1s", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration(s)
		if err != nil {
			return
		}
		back, err := ParseDuration(d.String())
		if err != nil || back != d {
			t.Fatalf("%q → %v → %q → %v, %v", s, d, d.String(), back, err)
		}
	})
}
