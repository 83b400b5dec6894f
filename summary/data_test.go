package summary

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// roundTrip returns v encoded as JSON and decoded into plain maps, the way a
// consumer of the data sees it.
func roundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// at walks a decoded JSON value along keys.
func at(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("at %q: %v is not an object", k, v)
		}
		if v, ok = m[k]; !ok {
			t.Fatalf("no key %q in %v", k, m)
		}
	}
	return v
}

func TestDataValues(t *testing.T) {
	r := newRun(t)
	trend := r.metric("latency", metrics.Trend, metrics.Time)
	for i := 1; i <= 100; i++ {
		r.push(trend, nil, float64(i))
	}
	rate := r.metric("ok_rate", metrics.Rate)
	r.push(rate, nil, 1, 1, 0, 1)
	counter := r.metric("requests", metrics.Counter)
	r.push(counter, nil, 5, 15)
	gauge := r.metric("depth", metrics.Gauge)
	r.push(gauge, nil, 4, 9, 2, 6)
	in := r.input(4 * time.Second)
	in.TrendStats = []string{"avg", "min", "med", "max", "p(95)", "p(99.9)", "count"}

	got := at(t, roundTrip(t, Data(in)), "metrics")
	tests := []struct {
		metric string
		want   map[string]any
	}{
		{"latency", map[string]any{"avg": 50.5, "min": 1.0, "med": 50.5, "max": 100.0, "p(95)": 95.05, "p(99.9)": 99.901, "count": 100.0}},
		{"ok_rate", map[string]any{"rate": 0.75, "passes": 3.0, "fails": 1.0}},
		{"requests", map[string]any{"count": 20.0, "rate": 5.0}},
		{"depth", map[string]any{"value": 6.0, "min": 2.0, "max": 9.0}},
	}
	for _, tt := range tests {
		if values := at(t, got, tt.metric, "values"); !reflect.DeepEqual(values, tt.want) {
			t.Errorf("%s.values = %v, want %v", tt.metric, values, tt.want)
		}
	}
	if typ := at(t, got, "latency", "type"); typ != "trend" {
		t.Errorf("latency.type = %v, want trend", typ)
	}
	if c := at(t, got, "latency", "contains"); c != "time" {
		t.Errorf("latency.contains = %v, want time", c)
	}
}

func TestDataShape(t *testing.T) {
	in := richRun(t)
	in.TimeUnit = "ms"
	in.IsStdOutTTY = true
	in.NoColor = true
	in.SetupData = map[string]any{"token": "abc"}
	got := roundTrip(t, Data(in))

	if keys, want := metrics.SortedNames(got), []string{"metrics", "options", "root_group", "setup_data", "state"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("data keys = %v, want %v", keys, want)
	}
	wantOptions := map[string]any{"summaryTrendStats": []any{"avg", "min", "med", "max", "p(90)", "p(95)"}, "summaryTimeUnit": "ms", "noColor": true}
	if o := at(t, got, "options"); !reflect.DeepEqual(o, wantOptions) {
		t.Errorf("options = %v, want %v", o, wantOptions)
	}
	wantState := map[string]any{"isStdOutTTY": true, "isStdErrTTY": false, "testRunDurationMs": 10000.0}
	if s := at(t, got, "state"); !reflect.DeepEqual(s, wantState) {
		t.Errorf("state = %v, want %v", s, wantState)
	}
	if tok := at(t, got, "setup_data", "token"); tok != "abc" {
		t.Errorf("setup_data.token = %v, want abc", tok)
	}

	ms := at(t, got, "metrics").(map[string]any)
	for _, name := range []string{"never_used", "dropped_iterations", "schedule_lag"} {
		if _, ok := ms[name]; ok {
			t.Errorf("metrics has %q, which has no samples and no thresholds", name)
		}
	}
	sub := at(t, ms, "http_req_duration{expected_response:true}").(map[string]any)
	if sub["type"] != "trend" || at(t, sub, "values", "max") != 149.5 {
		t.Errorf("submetric entry = %v, want a trend with max 149.5", sub)
	}
	wantThresholds := map[string]any{"p(95)<1500": map[string]any{"ok": true}, "p(90) < 200": map[string]any{"ok": false}}
	if th := at(t, ms, "http_req_duration", "thresholds"); !reflect.DeepEqual(th, wantThresholds) {
		t.Errorf("http_req_duration.thresholds = %v, want %v", th, wantThresholds)
	}
	if _, ok := at(t, ms, "http_reqs").(map[string]any)["thresholds"]; ok {
		t.Error("http_reqs has a thresholds key but no thresholds")
	}
}

func TestDataRootGroup(t *testing.T) {
	got := roundTrip(t, Data(richRun(t)))
	root := at(t, got, "root_group").(map[string]any)
	if root["name"] != "" || root["path"] != "" || root["id"] != "d41d8cd98f00b204e9800998ecf8427e" {
		t.Errorf("root group = name %q path %q id %q, want the empty root with the md5 of \"\"", root["name"], root["path"], root["id"])
	}
	checks := root["checks"].([]any)
	wantCheck := map[string]any{"name": "status is 200", "path": "::status is 200", "id": checks[0].(map[string]any)["id"], "passes": 10.0, "fails": 0.0}
	if len(checks) != 1 || !reflect.DeepEqual(checks[0], wantCheck) {
		t.Errorf("root checks = %v, want [%v]", checks, wantCheck)
	}
	groups := root["groups"].([]any)
	if len(groups) != 2 {
		t.Fatalf("root groups = %v, want api and the group without checks", groups)
	}
	api := groups[0].(map[string]any)
	auth := api["groups"].([]any)[0].(map[string]any)
	if api["path"] != "::api" || auth["path"] != "::api::auth" {
		t.Errorf("group paths = %q, %q, want ::api, ::api::auth", api["path"], auth["path"])
	}
	token := auth["checks"].([]any)[0].(map[string]any)
	if token["name"] != "token valid" || token["fails"] != 3.0 || token["passes"] != 0.0 {
		t.Errorf("nested check = %v, want token valid with 0 passes and 3 fails", token)
	}
	if empty := groups[1].(map[string]any); !reflect.DeepEqual(empty["checks"], []any{}) || !reflect.DeepEqual(empty["groups"], []any{}) {
		t.Errorf("group without checks = %v, want empty lists (not null)", empty)
	}
}

func TestDataWithoutSetupDataOrRoot(t *testing.T) {
	got := roundTrip(t, Data(Input{}))
	if _, ok := got["setup_data"]; ok {
		t.Error("data has setup_data though setup returned nothing")
	}
	if id := at(t, got, "root_group", "id"); id != "d41d8cd98f00b204e9800998ecf8427e" {
		t.Errorf("root_group.id without a tree = %v, want the md5 of \"\"", id)
	}
	if m := at(t, got, "metrics"); !reflect.DeepEqual(m, map[string]any{}) {
		t.Errorf("metrics of an empty run = %v, want {}", m)
	}
}
