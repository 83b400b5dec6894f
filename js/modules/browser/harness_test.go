package k6browser_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// prelude is prepended to every test script: the module, k6's check and
// an assertion that throws with what it expected and got.
const prelude = `import { browser } from 'k6/browser';
import { check } from 'k6';
function expect(what, got, want) {
	if (JSON.stringify(got) !== JSON.stringify(want)) {
		throw new Error(what + ": got " + JSON.stringify(got) + ", want " + JSON.stringify(want));
	}
}
async function rejects(what, promise, part) {
	try {
		await promise;
	} catch (e) {
		if (!String(e.message).includes(part)) {
			throw new Error(what + ": rejected with " + JSON.stringify(String(e.message)) + ", want it to contain " + JSON.stringify(part));
		}
		return String(e.message);
	}
	throw new Error(what + ": did not reject");
}
`

// session is a VU of a fresh run whose iterations belong to a scenario.
type session struct {
	t   *testing.T
	vu  *js.VU
	run *modules.Run
	log *bytes.Buffer
	sc  *modules.ScenarioInfo

	mu      sync.Mutex
	samples []metrics.Sample
}

// newSession bundles prelude+src and initialises VU 1 on it, in a run
// whose process environment is env. Its iterations belong to a scenario
// "ui" whose browser type is browserType ("" for none). The run ends (its
// Chromium closes) when the test does.
func newSession(t *testing.T, src, browserType string, env map[string]string) *session {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.js")
	if err := os.WriteFile(path, []byte(prelude+src), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := js.NewBundle(path)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, log: &bytes.Buffer{}}
	s.run = jstest.NewRun(s.log)
	s.run.ProcessEnv = env
	if s.run.ProcessEnv == nil {
		s.run.ProcessEnv = map[string]string{}
	}
	s.run.Engine.Subscribe(func(got []metrics.Sample) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.samples = append(s.samples, got...)
	})
	s.vu, err = b.NewVU(context.Background(), 1, s.run)
	if err != nil {
		t.Fatal(err)
	}
	s.sc = &modules.ScenarioInfo{Name: "ui", Executor: "shared-iterations", Exec: "default", Browser: browserType}
	t.Cleanup(s.run.End)
	return s
}

// iterate runs one iteration of the exec function name, bounded by d.
func (s *session) iterate(name string, d time.Duration) error {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return s.vu.RunIteration(ctx, js.Iteration{Exec: name, Scenario: s.sc, Tags: metrics.Tags{"scenario": s.sc.Name}})
}

// mustIterate runs one iteration of name and fails the test when it threw.
func (s *session) mustIterate(name string) {
	s.t.Helper()
	if err := s.iterate(name, 2*time.Minute); err != nil {
		s.t.Fatalf("iteration of %s: %v\nlog:\n%s", name, err, s.log.String())
	}
}

// checks returns how many checks passed and failed.
func (s *session) checks() (pass, fail int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, smp := range jstest.Of(s.samples, "checks") {
		if smp.Value == 1 {
			pass++
		} else {
			fail++
		}
	}
	return pass, fail
}

// script returns src with every {{url}} replaced by url.
func script(src, url string) string { return strings.ReplaceAll(src, "{{url}}", url) }
