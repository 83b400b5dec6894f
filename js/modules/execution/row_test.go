package k6execution_test

import (
	"context"
	"testing"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
)

// TestScenarioRow: exec.scenario.row is the iteration's trace row as a
// plain object (numbers stay numbers, arrays are arrays), a fresh one per
// iteration, and undefined when the iteration has no row.
func TestScenarioRow(t *testing.T) {
	vu := jstest.NewVU(t, `
import exec from 'k6/execution';
export let seen = [];
export default function () {
  const row = exec.scenario.row;
  if (row === undefined) { seen.push('none'); return; }
  row.input_length += 1; // a script's change stays in its copy
  seen.push([Object.getPrototypeOf(row) === Object.prototype, typeof row.timestamp,
    Array.isArray(row.hash_ids), exec.scenario.row.input_length].join(','));
}
export function result() { return seen.join(';'); }
`)
	sc := &modules.ScenarioInfo{Name: "replay", Executor: "trace-replay", Progress: func() float64 { return 0 }}
	for _, row := range []string{`{"timestamp": 27482, "input_length": 6955, "hash_ids": [46, 47]}`, ""} {
		it := js.Iteration{Exec: "default", Scenario: sc, Tags: vu.State().Tags}
		if row != "" {
			it.Row = []byte(row)
		}
		if err := vu.RunIteration(context.Background(), it); err != nil {
			t.Fatal(err)
		}
	}
	v, err := vu.Call(context.Background(), "result")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.String(), "true,number,true,6955;none"; got != want {
		t.Errorf("rows seen %q, want %q", got, want)
	}
}
