package k6websockets_test

import (
	"context"
	"testing"

	"github.com/usefullatency/usefullatency/internal/wsconn/wstest"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// prelude is prepended to every test script: the module and an assertion
// that throws with its message.
const prelude = `import { WebSocket, Blob } from 'k6/websockets';
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
	opts := []func(*modules.Run){func(r *modules.Run) { r.Env = map[string]string{"WS": wstest.Server(t, upgraded)} }}
	if change != nil {
		opts = append(opts, change)
	}
	r := jstest.Run(ctx, t, prelude+src, 1, opts...)
	return result{err: r.Err, samples: r.Samples, log: r.Log}
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
func (r result) of(name string) []metrics.Sample { return jstest.Of(r.samples, name) }
