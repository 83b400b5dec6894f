package k6ws_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/usefullatency/usefullatency/internal/wsconn/wstest"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// prelude is prepended to every test script: the module and an assertion
// that throws with its message.
const prelude = `import ws from 'k6/ws';
function eq(got, want, what) {
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(what + ': got ' + JSON.stringify(got) + ', want ' + JSON.stringify(want));
  }
}
`

// result is what one iteration of a test script did.
type result struct {
	err     error
	samples []metrics.Sample
	log     string
}

// run runs the default function of prelude+src once in a fresh VU whose
// __ENV.WS is the echo server's URL, and returns its error and every
// sample pushed.
func run(t *testing.T, src string) result {
	t.Helper()
	return runCtx(context.Background(), t, src, nil)
}

// runWith is run with the run's consolidated options.
func runWith(t *testing.T, src string, options map[string]any) result {
	t.Helper()
	return runOpts(context.Background(), t, src, nil, func(r *modules.Run) { r.Options = options })
}

// runCtx is run with the iteration's context and a hook of the server's
// upgrades.
func runCtx(ctx context.Context, t *testing.T, src string, upgraded func()) result {
	t.Helper()
	return runOpts(ctx, t, src, upgraded, nil)
}

// runOpts is runCtx with a change to the run, when not nil.
func runOpts(ctx context.Context, t *testing.T, src string, upgraded func(), change func(*modules.Run)) result {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.js")
	if err := os.WriteFile(path, []byte(prelude+src), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := js.NewBundle(path)
	if err != nil {
		t.Fatal(err)
	}
	reg := metrics.NewRegistry()
	log := &bytes.Buffer{}
	r := &modules.Run{
		Engine: metrics.NewEngine(reg), Registry: reg, Builtin: metrics.RegisterBuiltin(reg),
		Root: metrics.NewRootGroup(), Tags: metrics.Tags{}, Env: map[string]string{"WS": wstest.Server(t, upgraded)}, Log: log,
	}
	if change != nil {
		change(r)
	}
	var (
		mu  sync.Mutex
		got []metrics.Sample
	)
	r.Engine.Subscribe(func(s []metrics.Sample) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, s...)
	})
	vu, err := b.NewVU(context.Background(), 1, r)
	if err != nil {
		return result{err: err, log: log.String()}
	}
	err = vu.RunIteration(ctx, js.Iteration{Exec: "default", Tags: metrics.Tags{"scenario": "default"}})
	mu.Lock()
	defer mu.Unlock()
	return result{err: err, samples: got, log: log.String()}
}

// mustRun is run that fails the test when the script threw.
func mustRun(t *testing.T, src string) result {
	t.Helper()
	r := run(t, src)
	if r.err != nil {
		t.Fatalf("script: %v\n%s", r.err, r.log)
	}
	return r
}

// of returns the samples of the metric called name.
func (r result) of(name string) []metrics.Sample {
	var out []metrics.Sample
	for _, s := range r.samples {
		if s.Metric.Name == name {
			out = append(out, s)
		}
	}
	return out
}
