package e2e

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestOutputsSurviveSIGINT stops a run with SIGINT while it writes JSON
// and gzipped CSV: both files are complete and parseable, and they hold
// exactly the iterations the summary export counts.
func TestOutputsSurviveSIGINT(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	jsonPath, csvPath := filepath.Join(dir, "out.json"), filepath.Join(dir, "out.csv.gz")
	exportPath := filepath.Join(dir, "export.json")
	inv := invocation{args: []string{"run", "-q", "--summary-export", exportPath,
		"-o", "json=" + jsonPath, "-o", "csv=" + csvPath, script("signal.js")}}
	r := inv.interrupted(t)
	r.wantCode(t, 105)
	want := number(t, export(t, exportPath), "metrics", "iterations", "count")
	if want < 5 {
		t.Fatalf("only %v iterations before the signal", want)
	}
	if got := jsonIterations(t, jsonPath); got != want {
		t.Errorf("JSON output has %v iteration points, the summary %v", got, want)
	}
	if got := csvIterations(t, csvPath); got != want {
		t.Errorf("CSV output has %v iteration rows, the summary %v", got, want)
	}
}

// jsonIterations parses every line and counts the iterations points.
func jsonIterations(t *testing.T, path string) float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var n float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var line struct {
			Type, Metric string
			Data         struct{ Value float64 }
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("invalid JSON line %q: %v", sc.Text(), err)
		}
		if line.Type == "Point" && line.Metric == "iterations" {
			n += line.Data.Value
		}
	}
	return n
}

// csvIterations parses the gzipped CSV and counts the iterations rows.
func csvIterations(t *testing.T, path string) float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(gz).ReadAll()
	if err != nil {
		t.Fatalf("CSV does not parse: %v", err)
	}
	var n float64
	for _, row := range rows[1:] {
		if row[0] == "iterations" {
			n++
		}
	}
	return n
}
