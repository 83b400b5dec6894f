package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/options"
)

// progressScript has a scenario whose iterations all throw and one whose
// only iteration is cut at the end of its duration (gracefulStop 0s).
const progressScript = `import { sleep } from 'k6';

export const options = {
  scenarios: {
    throws: { executor: 'shared-iterations', vus: 1, iterations: 3, exec: 'throws' },
    cut: { executor: 'constant-vus', vus: 1, duration: '300ms', gracefulStop: '0s', exec: 'cut' },
  },
};

export function throws() { throw new Error('boom'); }

export function cut() { sleep(30); }
`

// TestProgressCountsThrownIterationsAsComplete checks the progress lines
// against k6's: an iteration that threw is a complete one; only an
// iteration a stop cut short is interrupted.
func TestProgressCountsThrownIterationsAsComplete(t *testing.T) {
	script := filepath.Join(t.TempDir(), "progress.js")
	if err := os.WriteFile(script, []byte(progressScript), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	test, err := Load(script, map[string]string{}, &errs)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := options.Consolidate(test.ScriptOptions)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := test.Execute(context.Background(), Config{Options: opts, ScriptName: script, Stdout: &out, Stderr: &errs}); err != nil {
		t.Fatalf("execute: %v\n%s", err, errs.String())
	}
	// The last block is the final progress, printed when the run ended.
	blocks := strings.Split(strings.TrimSpace(errs.String()), "\n\n")
	final := blocks[len(blocks)-1]
	for _, want := range []string{
		`(?m)^running \(\S+\), 00/02 VUs, 3 complete and 1 interrupted iterations$`,
		`(?m)^throws \[ done \] .* 3 complete, 0 interrupted, 0 dropped `,
		`(?m)^cut    \[ done \] .* 0 complete, 1 interrupted, 0 dropped `,
	} {
		if !regexp.MustCompile(want).MatchString(final) {
			t.Errorf("final progress does not match %s:\n%s", want, final)
		}
	}
	if !strings.Contains(errs.String(), "ERRO Error: boom") {
		t.Errorf("the iterations' error was not logged:\n%s", errs.String())
	}
}
