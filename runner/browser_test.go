package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/internal/eventually"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// browserScript is a k6/browser test: two VUs, two iterations each, in a
// scenario with a browser, and one iteration of a scenario without one.
const browserScript = `import { browser } from 'k6/browser';
import { check } from 'k6';
export const options = {
	scenarios: {
		ui: { executor: 'per-vu-iterations', vus: 2, iterations: 2, options: { browser: { type: 'chromium' } } },
		plain: { executor: 'shared-iterations', iterations: 1, exec: 'plain' },
	},
};
export default async function () {
	const page = await browser.newPage();
	try {
		await page.goto(__ENV.SITE);
		check(await page.locator('h1').textContent(), { heading: (h) => h === 'hello' });
	} finally {
		await page.close();
	}
}
export async function plain() {
	await browser.newPage();
}
`

// TestExecuteBrowserScenario runs a browser test through the runner:
// the scenario's browser type reaches the VUs, the scenario without one
// is refused the browser, and no Chromium outlives the run.
func TestExecuteBrowserScenario(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>t</title><h1>hello</h1>`)
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "browser.js")
	if err := os.WriteFile(path, []byte(browserScript), 0o644); err != nil {
		t.Fatal(err)
	}
	var errs bytes.Buffer
	test, err := Load(path, map[string]string{"SITE": srv.URL}, &errs)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := options.Consolidate(test.ScriptOptions)
	if err != nil {
		t.Fatal(err)
	}
	opts.Quiet, opts.NoSummary = true, true
	code, err := test.Execute(context.Background(), Config{Options: opts, ScriptName: path, Stdout: &bytes.Buffer{}, Stderr: &errs})
	if err != nil || code != ExitOK {
		t.Fatalf("exit %d, %v\n%s", code, err, errs.String())
	}
	checks := test.Run.Registry.Get("checks").Sink.(*metrics.RateSink)
	if checks.Trues != 4 || checks.Total != 4 {
		t.Fatalf("checks: %d of %d passed\n%s", checks.Trues, checks.Total, errs.String())
	}
	if !strings.Contains(errs.String(), `the scenario \"plain\" has no browser`) && !strings.Contains(errs.String(), `the scenario "plain" has no browser`) {
		t.Fatalf("the scenario without a browser was not refused:\n%s", errs.String())
	}
	eventually.True(t, "no Chromium is left", func() bool { return len(chromiumChildren(t)) == 0 })
}

// TestLoadRefusesOtherBrowsers checks that a browser type other than
// chromium is an invalid configuration (exit code 104).
func TestLoadRefusesOtherBrowsers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "firefox.js")
	src := strings.Replace(browserScript, "type: 'chromium'", "type: 'firefox'", 1)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path, map[string]string{}, &bytes.Buffer{})
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != ExitInvalidConfig ||
		!strings.Contains(err.Error(), `scenarios.ui.options.browser.type: browser type "firefox" is not supported`) {
		t.Fatalf("firefox: %v", err)
	}
}

// chromiumChildren returns the pids of this process's children whose
// command names Chromium.
func chromiumChildren(t *testing.T) []int {
	t.Helper()
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	self := os.Getpid()
	var out []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		comm := strings.ToLower(s[open+1 : end])
		fields := strings.Fields(s[end+1:])
		if len(fields) < 2 || fields[0] == "Z" {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == self && strings.Contains(comm, "chrom") {
			out = append(out, pid)
		}
	}
	return out
}
