package options

import (
	"strings"
	"testing"
)

func TestScenarioBrowserOption(t *testing.T) {
	browser := map[string]any{"browser": map[string]any{"type": "chromium"}}
	sc, err := parseOne(t, map[string]any{"executor": "shared-iterations", "options": browser})
	if err != nil || sc.Browser != BrowserChromium {
		t.Fatalf("browser %q, %v", sc.Browser, err)
	}
	b, err := sc.MarshalJSON()
	if err != nil || !strings.Contains(string(b), `"options":{"browser":{"type":"chromium"}}`) {
		t.Fatalf("inspect shows %s, %v", b, err)
	}
	plain, _ := parseOne(t, map[string]any{"executor": "shared-iterations"})
	if b, _ := plain.MarshalJSON(); strings.Contains(string(b), "options") {
		t.Fatalf("a scenario without a browser shows options: %s", b)
	}
	// The archive's metadata reads what inspect wrote.
	o, err := FromScript(map[string]any{"scenarios": map[string]any{"s": map[string]any{"executor": "shared-iterations", "options": browser}}})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := o.ArchiveJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromArchiveJSON(raw)
	if err != nil || len(back.Scenarios) != 1 || back.Scenarios[0].Browser != BrowserChromium {
		t.Fatalf("archive round trip: %+v, %v", back.Scenarios, err)
	}
}

func TestScenarioBrowserOptionErrors(t *testing.T) {
	tests := []struct {
		name    string
		options any
		want    []string
	}{
		{"not an object", "chromium", []string{"scenarios.s.options: expected an object"}},
		{"other browser", map[string]any{"browser": map[string]any{"type": "firefox"}},
			[]string{`scenarios.s.options.browser.type: browser type "firefox" is not supported: the only one is "chromium"`}},
		{"type missing", map[string]any{"browser": map[string]any{}},
			[]string{`scenarios.s.options.browser.type: required: set it to "chromium"`}},
		{"type not a string", map[string]any{"browser": map[string]any{"type": int64(1)}},
			[]string{"scenarios.s.options.browser.type: expected a string"}},
		{"unknown fields", map[string]any{"browser": map[string]any{"type": "chromium", "headless": false}, "gpu": true}, []string{
			`scenarios.s.options: unknown field "gpu"`,
			`scenarios.s.options.browser: unknown field "headless"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromScript(map[string]any{"scenarios": map[string]any{"s": map[string]any{
				"executor": "shared-iterations", "options": tt.options}}})
			checkErrors(t, err, tt.want...)
		})
	}
}
