package summary

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// export runs Export and decodes its JSON.
func export(t *testing.T, in Input) (map[string]any, []byte) {
	t.Helper()
	b, err := Export(in)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("export is not JSON: %v\n%s", err, b)
	}
	return out, b
}

func TestExportMetrics(t *testing.T) {
	r := newRun(t)
	rate := r.metric("ok_rate", metrics.Rate)
	r.push(rate, nil, 1, 1, 0, 1)
	threshold(t, rate, "rate>0.9", 4*time.Second, true)
	threshold(t, rate, "rate>0.5", 4*time.Second, false)
	counter := r.metric("requests", metrics.Counter)
	r.push(counter, nil, 20)
	trend := r.metric("latency", metrics.Trend, metrics.Time)
	for i := 1; i <= 100; i++ {
		r.push(trend, nil, float64(i))
	}
	got, raw := export(t, r.input(4*time.Second))

	if _, ok := got["options"]; ok {
		t.Error("export has options")
	}
	if _, ok := got["state"]; ok {
		t.Error("export has state")
	}
	wantRate := map[string]any{
		"value": 0.75, "passes": 3.0, "fails": 1.0,
		"thresholds": map[string]any{"rate>0.9": true, "rate>0.5": false},
	}
	if m := at(t, got, "metrics", "ok_rate"); !reflect.DeepEqual(m, wantRate) {
		t.Errorf("ok_rate = %v, want %v (value for rate, true for the failed threshold)", m, wantRate)
	}
	if m := at(t, got, "metrics", "requests"); !reflect.DeepEqual(m, map[string]any{"count": 20.0, "rate": 5.0}) {
		t.Errorf("requests = %v, want count 20 and rate 5 (a counter keeps its rate)", m)
	}
	if p := at(t, got, "metrics", "latency", "p(95)"); p != 95.05 {
		t.Errorf("latency p(95) = %v, want 95.05", p)
	}
	if med := at(t, got, "metrics", "latency", "med"); med != 50.5 {
		t.Errorf("latency med = %v, want 50.5", med)
	}
	if !bytes.Contains(raw, []byte("\n    \"metrics\": {\n        \"")) {
		t.Errorf("export is not indented with four spaces:\n%s", raw)
	}
}

func TestExportRootGroup(t *testing.T) {
	got, _ := export(t, richRun(t))
	root := at(t, got, "root_group")
	if id := at(t, root, "id"); id != "d41d8cd98f00b204e9800998ecf8427e" {
		t.Errorf("root_group.id = %v", id)
	}
	check := at(t, root, "checks", "status is 200").(map[string]any)
	if check["passes"] != 10.0 || check["fails"] != 0.0 || check["path"] != "::status is 200" {
		t.Errorf("root check = %v, want 10 passes, 0 fails, path ::status is 200", check)
	}
	if fails := at(t, root, "groups", "api", "groups", "auth", "checks", "token valid", "fails"); fails != 3.0 {
		t.Errorf("api/auth token valid fails = %v, want 3", fails)
	}
	if g := at(t, root, "groups", "no checks here"); !reflect.DeepEqual(at(t, g, "checks"), map[string]any{}) {
		t.Errorf("group without checks = %v, want checks {}", g)
	}
}

func TestExportSetupData(t *testing.T) {
	in := Input{SetupData: []any{1.0, "two"}}
	got, _ := export(t, in)
	if s := got["setup_data"]; !reflect.DeepEqual(s, []any{1.0, "two"}) {
		t.Errorf("setup_data = %v, want [1 two]", s)
	}
	got, _ = export(t, Input{})
	if _, ok := got["setup_data"]; ok {
		t.Error("export has setup_data though setup returned nothing")
	}
}

func TestExportUnencodableSetupData(t *testing.T) {
	if _, err := Export(Input{SetupData: func() {}}); err == nil {
		t.Error("Export of a function as setup data succeeded, want an error")
	}
}
