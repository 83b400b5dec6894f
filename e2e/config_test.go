package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigFile checks k6's config file: the lowest layer of options
// (under the script, the environment and the flags), named by --config,
// K6_CONFIG or found at k6's default place; a bad one exits 104 naming it.
func TestConfigFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	config := filepath.Join(dir, "config.json")
	if err := os.WriteFile(config, []byte(`{"vus": 3, "iterations": 9, "summaryTrendStats": ["avg", "p(99)"], "userAgent": "from-config"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	inspect := func(inv invocation) map[string]any {
		t.Helper()
		r := inv.run(t)
		r.wantCode(t, 0)
		var got map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Fatalf("inspect output: %v\n%s", err, r.stdout)
		}
		return got
	}
	// The script sets iterations 6 (OPTIONS), which beats the file's 9;
	// the flag beats both for vus.
	script := script("config.js")
	for name, inv := range map[string]invocation{
		"--config":  {args: []string{"inspect", "--config", config, "--vus", "2", script}, env: []string{`OPTIONS={"iterations": 6}`}},
		"K6_CONFIG": {args: []string{"inspect", "--vus", "2", script}, env: []string{`OPTIONS={"iterations": 6}`, "K6_CONFIG=" + config}},
	} {
		got := inspect(inv)
		if got["vus"] != 2.0 || got["iterations"] != 6.0 || got["userAgent"] != "from-config" ||
			strings.Join(toStrings(got["summaryTrendStats"]), ",") != "avg,p(99)" {
			t.Errorf("%s: vus %v iterations %v userAgent %v summaryTrendStats %v; want 2 (flag), 6 (script), from-config, avg,p(99) (file)",
				name, got["vus"], got["iterations"], got["userAgent"], got["summaryTrendStats"])
		}
	}

	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "loadimpact", "k6"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "loadimpact", "k6", "config.json"), []byte(`{"userAgent": "default-file"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := inspect(invocation{args: []string{"inspect", script}, env: []string{"XDG_CONFIG_HOME=" + home}}); got["userAgent"] != "default-file" {
		t.Errorf("default config file: userAgent %v, want default-file", got["userAgent"])
	}

	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"vus": "many"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{bad, filepath.Join(dir, "missing.json")} {
		r := run(t, "run", "--config", path, script)
		r.wantCode(t, 104)
		if line := r.errorLine(t); !strings.Contains(line, path) {
			t.Errorf("error %q does not name %s", line, path)
		}
	}
}

// toStrings returns the strings of a JSON array.
func toStrings(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
