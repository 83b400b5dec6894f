package k6browser_test

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/eventually"
	"github.com/usefullatency/usefullatency/js/modules"
	k6browser "github.com/usefullatency/usefullatency/js/modules/browser"
)

// seen records the Chromium processes the test module was shown pages of.
var seen struct {
	sync.Mutex
	pids map[int]bool
}

// The test module k6/x/browsertest hands a script's pages to Go through
// PageOf: pid(page) returns the process id of the page's Chromium (0 for
// a value that is not a page) and url(page) the page's URL as Go sees it.
func init() {
	modules.Register("k6/x/browsertest", modules.ModuleFunc(func(vu modules.VU) modules.Instance {
		return testModule{vu}
	}))
}

type testModule struct{ vu modules.VU }

func (m testModule) Exports() modules.Exports {
	rt := m.vu.Runtime()
	return modules.Exports{Named: map[string]any{
		"pid": func(v sobek.Value) int {
			p, ok := k6browser.PageOf(v)
			if !ok {
				return 0
			}
			pid := p.Context().Browser().PID()
			seen.Lock()
			if seen.pids == nil {
				seen.pids = map[int]bool{}
			}
			seen.pids[pid] = true
			seen.Unlock()
			return pid
		},
		"url": func(v sobek.Value) sobek.Value {
			p, ok := k6browser.PageOf(v)
			if !ok {
				return sobek.Null()
			}
			return rt.ToValue(p.URL())
		},
	}}
}

// TestIterationLifecycle checks k6's lifecycle: the contexts and pages an
// iteration opened are closed at its end, so that the next starts with
// no context and no cookie, on the same Chromium process; the run's end
// closes the process.
func TestIterationLifecycle(t *testing.T) {
	srv := newSite(t)
	s := newSession(t, script(`
import { pid, url } from 'k6/x/browsertest';
const first = {};
export default async function () {
	if (__ITER === 0) {
		const page = await browser.newPage();
		await page.goto('{{url}}/cookie');
		first.page = page;
		first.pid = pid(page);
		expect('PageOf', url(page), '{{url}}/cookie');
		expect('PageOf of another value', [pid({}), url(42)], [0, null]);
		return; // the page and its context are left open
	}
	expect('the last iteration\'s page is closed', first.page.isClosed(), true);
	expect('no context', browser.context(), null);
	const page = await browser.newPage();
	await page.goto('{{url}}/cookie');
	expect('no cookie from the last iteration', await page.textContent('#seen'), '');
	expect('same Chromium', pid(page), first.pid);
	expect('pid', first.pid > 0, true);
}`, srv.URL), "chromium", nil)
	s.mustIterate("default")
	s.mustIterate("default")
	seen.Lock()
	var pids []int
	for pid := range seen.pids {
		pids = append(pids, pid)
	}
	seen.Unlock()
	if len(pids) != 1 {
		t.Fatalf("Chromium processes: %v", pids)
	}
	if !running(pids[0]) {
		t.Fatalf("Chromium %d stopped before the run ended", pids[0])
	}
	s.run.End()
	eventually.True(t, "Chromium exits at the end of the run", func() bool { return !running(pids[0]) })
}

// running reports whether the process pid exists and is not a zombie.
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command, which is in parentheses.
	rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
	return !strings.HasPrefix(strings.TrimSpace(rest), "Z")
}
