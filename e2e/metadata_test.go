package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMetadataInOutputs checks that exec.vu.metrics.metadata reaches the
// JSON and CSV outputs on the samples pushed while it was set, and only
// there: it is no tag.
func TestMetadataInOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	jsonPath, csvPath := filepath.Join(dir, "out.json"), filepath.Join(dir, "out.csv")
	r := run(t, "run", "-q", "--no-summary", "-o", "json="+jsonPath, "-o", "csv="+csvPath, script("metadata.js"))
	r.wantCode(t, 0)

	f, err := os.Open(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var with, without []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var line struct {
			Type   string `json:"type"`
			Metric string `json:"metric"`
			Data   struct {
				Tags     map[string]string `json:"tags"`
				Metadata map[string]string `json:"metadata"`
			} `json:"data"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("bad JSON line %q: %v", sc.Text(), err)
		}
		if line.Type != "Point" || line.Metric != "marked" {
			continue
		}
		if _, isTag := line.Data.Tags["trace_id"]; isTag {
			t.Errorf("trace_id became a tag: %s", sc.Text())
		}
		if id := line.Data.Metadata["trace_id"]; id != "" {
			with = append(with, id)
		} else {
			without = append(without, line.Data.Tags["after"])
		}
	}
	if strings.Join(with, ",") != "t0,t1" || strings.Join(without, ",") != "delete,delete" {
		t.Errorf("marked points: metadata %v, without metadata %v; want t0,t1 and the two after delete", with, without)
	}

	b, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), ",trace_id=t0\n") || !strings.Contains(string(b), ",trace_id=t1\n") {
		t.Errorf("the CSV metadata column lacks trace_id=t0 and t1:\n%s", b)
	}
}
