package options

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseStages(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Stage
	}{
		{"one stage", "30s:10", []Stage{{Duration(30 * time.Second), 10}}},
		{"two stages", "30s:10,1m:20", []Stage{{Duration(30 * time.Second), 10}, {Duration(time.Minute), 20}}},
		{"spaces", " 30s : 10 , 1m:0 ", []Stage{{Duration(30 * time.Second), 10}, {Duration(time.Minute), 0}}},
		{"missing target holds", "10s:100,60s,10s:0", []Stage{
			{Duration(10 * time.Second), 100}, {Duration(60 * time.Second), 100}, {Duration(10 * time.Second), 0}}},
		{"first without target is 0", "5s", []Stage{{Duration(5 * time.Second), 0}}},
		{"milliseconds and days", "1500:1,1d:2", []Stage{{Duration(1500 * time.Millisecond), 1}, {Duration(24 * time.Hour), 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseStages(tt.in)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Fatalf("ParseStages(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseStagesErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "no stages"},
		{"empty stage", "10s:1,,5s:2", `stage 2 ""`},
		{"bad duration", "10q:1", "invalid duration"},
		{"negative duration", "-1s:1", "must not be negative"},
		{"negative target", "10s:-1", "not a non-negative integer"},
		{"fractional target", "10s:1.5", "not a non-negative integer"},
		{"text target", "10s:many", "not a non-negative integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseStages(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseStages(%q) error = %v, want %q", tt.in, err, tt.want)
			}
		})
	}
}
