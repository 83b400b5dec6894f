package options

import (
	"encoding/json"
	"testing"
)

// fromJSON reads a script's options from JSON and consolidates them with
// extra (flag-like) layers.
func fromJSON(t *testing.T, script string, extra ...Options) Options {
	t.Helper()
	var raw map[string]any
	if err := json.Unmarshal([]byte(script), &raw); err != nil {
		t.Fatal(err)
	}
	layer, err := FromScript(raw)
	if err != nil {
		t.Fatal(err)
	}
	o, err := Consolidate(append([]Options{layer}, extra...)...)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// VU counts above the ceiling are refused naming the option as the user
// wrote it (the shortcuts' vus and stages, a scenario's field), this
// instance's share under a segment, the sum of the scenarios, and the VUs
// initialised before the start when the machine's memory cannot hold them
// at 144 KiB each; maxVUs beyond preAllocatedVUs only count against the
// ceiling.
func TestCheckVULimit(t *testing.T) {
	t.Parallel()
	const gib = 1 << 30
	arrival := func(pre, max string) string {
		return `{"scenarios":{"s":{"executor":"constant-arrival-rate","rate":1,"duration":"1s","preAllocatedVUs":` + pre + `,"maxVUs":` + max + `}}}`
	}
	for _, tc := range []struct {
		name, script string
		segment      string
		memory       uint64
		want         []string
	}{
		{name: "maxVUs 1e10", script: arrival("1", "1e10"),
			want: []string{"scenarios.s.maxVUs: 10000000000 VUs is more than the ceiling of 1000000 VUs per instance; --no-vu-limit lifts it"}},
		{name: "vus shortcut", script: `{"vus":1e9,"duration":"1s"}`, want: []string{"vus: 1000000000 VUs is more than"}},
		{name: "iterations shortcut", script: `{"vus":1000001,"iterations":2000000}`, want: []string{"vus: 1000001 VUs"}},
		{name: "stage target shortcut", script: `{"stages":[{"duration":"1s","target":5},{"duration":"1s","target":1e9}]}`,
			want: []string{"stages[1].target: 1000000000 VUs"}},
		{name: "ramping-vus scenario", script: `{"scenarios":{"r":{"executor":"ramping-vus","startVUs":2000000,"stages":[{"duration":"1s","target":1}]}}}`,
			want: []string{"scenarios.r.startVUs: 2000000 VUs"}},
		{name: "preAllocatedVUs and maxVUs", script: arrival("1e9", "1e9"),
			want: []string{"scenarios.s.preAllocatedVUs: 1000000000 VUs", "scenarios.s.maxVUs: 1000000000 VUs"}},
		{name: "at the ceiling", script: arrival("1", "1000000")},
		{name: "a quarter is within", script: `{"vus":4000000,"duration":"1s"}`, segment: "0:1/4"},
		{name: "a half is not", script: `{"vus":4000000,"duration":"1s"}`, segment: "1/2:1",
			want: []string{"vus: 2000000 VUs (this instance's share of 4000000) is more than the ceiling"}},
		{name: "scenarios together", script: `{"scenarios":{
			"a":{"executor":"constant-vus","vus":600000,"duration":"1s"},
			"b":{"executor":"constant-arrival-rate","rate":1,"duration":"1s","preAllocatedVUs":1,"maxVUs":600000}}}`,
			want: []string{"scenarios: together 1200000 VUs, more than the ceiling of 1000000 VUs per instance"}},
		{name: "memory", script: `{"vus":100000,"duration":"1s"}`, memory: gib,
			want: []string{"vus: 100000 VUs initialised before the test starts need at least 13.7 GiB (144 KiB each), more than this machine's 1.0 GiB of memory; --no-vu-limit lifts the check"}},
		{name: "memory fits", script: `{"vus":7000,"duration":"1s"}`, memory: gib},
		{name: "memory just short", script: `{"vus":7282,"duration":"1s"}`, memory: gib, want: []string{"vus: 7282 VUs initialised"}},
		{name: "maxVUs are started on demand", script: arrival("10", "500000"), memory: gib},
		{name: "memory of preAllocatedVUs", script: arrival("40000", "40000"), memory: gib,
			want: []string{"scenarios.s.preAllocatedVUs: 40000 VUs initialised"}},
		{name: "memory of a ramp's peak", script: `{"stages":[{"duration":"1s","target":10},{"duration":"1s","target":50000},{"duration":"1s","target":0}]}`,
			memory: gib, want: []string{"stages[1].target: 50000 VUs initialised"}},
		{name: "memory of two scenarios", script: `{"scenarios":{
			"a":{"executor":"constant-vus","vus":20000,"duration":"1s"},
			"b":{"executor":"per-vu-iterations","vus":20000,"iterations":1}}}`, memory: gib,
			want: []string{"scenarios: together 40000 VUs initialised before the test starts need at least 5.5 GiB"}},
		{name: "no memory known", script: `{"vus":900000,"duration":"1s"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := fromJSON(t, tc.script, Options{ExecutionSegment: tc.segment})
			checkErrors(t, o.CheckVULimit(VULimit{MaxVUs: DefaultMaxVUs, Memory: tc.memory}), tc.want...)
		})
	}
}
