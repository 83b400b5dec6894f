package k6grpc_test

import (
	"context"
	"testing"

	"github.com/usefullatency/usefullatency/internal/grpcdesc/grpctest"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// prelude is prepended to every test script: the module, a client that
// loaded grpctest's chat.proto, and an assertion that throws with its
// message.
const prelude = `import grpc from 'k6/net/grpc';
const client = new grpc.Client();
client.load([__ENV.PROTO_DIR], 'chat.proto');
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
// __ENV.GRPC is a fresh chat server's address and __ENV.PROTO_DIR the
// directory of chat.proto.
func run(t *testing.T, src string) result {
	t.Helper()
	return runWith(t, prelude+src, nil)
}

// runWith runs src (without the prelude) with the run's options.
func runWith(t *testing.T, src string, options map[string]any) result {
	t.Helper()
	srv := grpctest.Start(t)
	r := jstest.Run(context.Background(), t, src, 1, func(r *modules.Run) {
		r.Env = map[string]string{"GRPC": srv.Addr, "PROTO_DIR": srv.ProtoDir}
		if options != nil {
			r.Options = options
		}
	})
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
