package options

import (
	"strings"
	"testing"
)

// Options written to an archive and read back consolidate to the same
// options, with no warning, whether the test used scenarios or shortcuts.
func TestArchiveJSONRoundTrip(t *testing.T) {
	for name, raw := range map[string]map[string]any{
		"scenarios": {
			"scenarios": map[string]any{
				"r": ramp("5s"),
				"a": map[string]any{
					"executor": "constant-arrival-rate", "rate": int64(10), "duration": "1m",
					"preAllocatedVUs": int64(5), "maxVUs": int64(20), "startTime": "30s",
					"exec": "api", "env": map[string]any{"MODE": "fast"}, "tags": map[string]any{"k": "v"},
				},
			},
			"thresholds": map[string]any{
				"http_req_duration{status:200}": []any{"p(95)<200",
					map[string]any{"threshold": "max<1000", "abortOnFail": true, "delayAbortEval": "10s"}},
			},
			"tags": map[string]any{"team": "latency"}, "noSetup": true, "maxRedirects": int64(3),
			"hosts": map[string]any{"a.test": "127.0.0.1"}, "minIterationDuration": "1s",
		},
		"shortcuts": {"vus": int64(7), "duration": "45s", "setupTimeout": "2m"},
		"nothing":   {},
	} {
		t.Run(name, func(t *testing.T) {
			script, err := FromScript(raw)
			checkErrors(t, err)
			flags := Options{Source: "flags", NoSummary: true, SummaryExport: "x.json"}
			o, err := Consolidate(script, flags)
			checkErrors(t, err)
			arc, err := o.ArchiveJSON()
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"noSummary", "summaryExport"} {
				if strings.Contains(string(arc), k) {
					t.Errorf("archive options hold the run option %s:\n%s", k, arc)
				}
			}
			back, err := FromArchiveJSON(arc)
			checkErrors(t, err)
			if len(back.Warnings) > 0 {
				t.Errorf("warnings reading the archive options: %q\n%s", back.Warnings, arc)
			}
			again, err := Consolidate(back)
			checkErrors(t, err)
			want, _ := Options{Scenarios: o.Scenarios, Thresholds: o.Thresholds}.InspectJSON()
			got, _ := Options{Scenarios: again.Scenarios, Thresholds: again.Thresholds}.InspectJSON()
			if string(got) != string(want) {
				t.Errorf("scenarios and thresholds after the round trip:\n%s\nwant:\n%s", got, want)
			}
			o.NoSummary, o.SummaryExport = false, ""
			wantAll, _ := o.InspectJSON()
			gotAll, _ := again.InspectJSON()
			if string(gotAll) != string(wantAll) {
				t.Errorf("options after the round trip:\n%s\nwant:\n%s", gotAll, wantAll)
			}
		})
	}
}

func TestFromArchiveJSONErrors(t *testing.T) {
	_, err := FromArchiveJSON([]byte(`{"vus": "many"}`))
	checkErrors(t, err, "vus")
	_, err = FromArchiveJSON([]byte(`{"vus": `))
	checkErrors(t, err, "archive options")
}
