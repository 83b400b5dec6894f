package summary

import (
	"testing"

	"github.com/usefullatency/usefullatency/metrics"
)

func TestFormatTime(t *testing.T) {
	tests := []struct {
		name string
		ms   float64
		unit string
		want string
	}{
		{"zero", 0, "", "0s"},
		{"nanoseconds truncated", 0.0005129, "", "512ns"},
		{"microseconds", 0.007, "", "7µs"},
		{"microseconds truncated", 0.0122599, "", "12.25µs"},
		{"milliseconds", 148.2199, "", "148.21ms"},
		{"just under a second", 999.999, "", "999.99ms"},
		{"seconds", 1500, "", "1.5s"},
		{"seconds trailing zeros trimmed", 2000, "", "2s"},
		{"exactly a minute", 60000, "", "1m0s"},
		{"minutes have whole seconds", 62999, "", "1m2s"},
		{"hours", 3725000, "", "1h2m5s"},
		{"negative", -1500, "", "-1.5s"},
		{"fixed seconds", 148.21, "s", "0.15s"},
		{"fixed milliseconds", 1500, "ms", "1500.00ms"},
		{"fixed microseconds", 0.25, "us", "250.00µs"},
		{"fixed unit rounds half up", 0.125, "ms", "0.13ms"},
		{"unknown unit is automatic", 1500, "m", "1.5s"},
	}
	for _, tt := range tests {
		if got := FormatTime(tt.ms, tt.unit); got != tt.want {
			t.Errorf("%s: FormatTime(%v, %q) = %q, want %q", tt.name, tt.ms, tt.unit, got, tt.want)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	tests := []struct {
		b    float64
		want string
	}{
		{0, "0 B"},
		{5, "5 B"},
		{3.25, "3.25 B"},
		{718, "718 B"},
		{4900, "4.9 kB"},
		{9960, "10 kB"},
		{519000, "519 kB"},
		{1300000, "1.3 MB"},
		{7.1e9, "7.1 GB"},
	}
	for _, tt := range tests {
		if got := FormatBytes(tt.b); got != tt.want {
			t.Errorf("FormatBytes(%v) = %q, want %q", tt.b, got, tt.want)
		}
	}
}

func TestFormatNumber(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{10, "10"},
		{3.5, "3.5"},
		{13.1221794, "13.122179"},
		{152.3555555, "152.355556"},
		{0.0000004, "0"},
		{-0.0000004, "0"},
		{-2.5, "-2.5"},
		{1e21, "1000000000000000000000"},
	}
	for _, tt := range tests {
		if got := FormatNumber(tt.v); got != tt.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestFormatPercent(t *testing.T) {
	tests := []struct {
		r    float64
		want string
	}{
		{0, "0.00%"},
		{1, "100.00%"},
		{2.0 / 3, "66.66%"},
		{499787.0 / 1449133, "34.48%"},
		{0.75, "75.00%"},
	}
	for _, tt := range tests {
		if got := FormatPercent(tt.r); got != tt.want {
			t.Errorf("FormatPercent(%v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestFormatValue(t *testing.T) {
	tests := []struct {
		v    float64
		vt   metrics.ValueType
		want string
	}{
		{1500, metrics.Time, "1.5s"},
		{1500, metrics.Data, "1.5 kB"},
		{1500, metrics.Default, "1500"},
	}
	for _, tt := range tests {
		if got := FormatValue(tt.v, tt.vt, ""); got != tt.want {
			t.Errorf("FormatValue(%v, %s) = %q, want %q", tt.v, tt.vt, got, tt.want)
		}
	}
}

func TestToFixedRoundsExactValue(t *testing.T) {
	tests := []struct {
		v        float64
		decimals int
		want     string
	}{
		{0.125, 2, "0.13"},  // an exact tie rounds away from zero
		{1.005, 2, "1.00"},  // 1.005 is 1.00499999… in binary
		{2.5, 0, "3"},       // tie
		{-2.5, 0, "-3"},     // tie, away from zero
		{9.999, 2, "10.00"}, // carry into the whole part
		{0.0001, 2, "0.00"},
		{-0.0001, 2, "0.00"},
	}
	for _, tt := range tests {
		if got := toFixed(tt.v, tt.decimals); got != tt.want {
			t.Errorf("toFixed(%v, %d) = %q, want %q", tt.v, tt.decimals, got, tt.want)
		}
	}
}
