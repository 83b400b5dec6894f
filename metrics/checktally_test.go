package metrics

import (
	"reflect"
	"testing"
)

// TestCheckTally counts checks per scenario by name in first-seen order,
// and ignores other metrics and samples without the tag or a check name.
func TestCheckTally(t *testing.T) {
	reg := NewRegistry()
	checks := reg.MustNewMetric("checks", Rate)
	other := reg.MustNewMetric("other", Rate)
	tally := NewCheckTally("scenario", checks)
	tally.Add([]Sample{
		{Metric: checks, Tags: Tags{"scenario": "a", "check": "second"}, Value: 1},
		{Metric: checks, Tags: Tags{"scenario": "a", "check": "first"}, Value: 0},
		{Metric: checks, Tags: Tags{"scenario": "a", "check": "second"}, Value: 0},
		{Metric: checks, Tags: Tags{"scenario": "b", "check": "first"}, Value: 1},
		{Metric: checks, Tags: Tags{"check": "untagged"}, Value: 1},
		{Metric: other, Tags: Tags{"scenario": "a", "check": "first"}, Value: 1},
	})
	if got, want := tally.Checks("a"), []CheckCount{{"second", 1, 1}, {"first", 0, 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("scenario a: %v, want %v", got, want)
	}
	if got, want := tally.Checks("b"), []CheckCount{{"first", 1, 0}}; !reflect.DeepEqual(got, want) {
		t.Errorf("scenario b: %v, want %v", got, want)
	}
	if got := tally.Checks("none"); got != nil {
		t.Errorf("unknown scenario: %v, want nil", got)
	}
}
