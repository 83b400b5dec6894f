package js_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

func newRun() (*modules.Run, *bytes.Buffer) {
	log := &bytes.Buffer{}
	run := jstest.NewRun(log)
	run.Env = map[string]string{"A": "1"}
	return run, log
}

func writeScript(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.js")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBasicScript(t *testing.T) {
	b, err := js.NewBundle("testdata/basic.js")
	if err != nil {
		t.Fatal(err)
	}
	run, log := newRun()
	setupVU, err := b.NewVU(context.Background(), 0, run)
	if err != nil {
		t.Fatal(err)
	}
	opts := setupVU.ExportedOptions()
	if opts["vus"] != int64(2) {
		t.Errorf("options.vus = %v", opts["vus"])
	}
	res, err := setupVU.Call(context.Background(), "setup")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := res.ToObject(setupVU.Runtime()).MarshalJSON()
	for id := int64(1); id <= 2; id++ {
		vu, err := b.NewVU(context.Background(), id, run)
		if err != nil {
			t.Fatal(err)
		}
		if err := vu.SetSetupData(data); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			err := vu.RunIteration(context.Background(), js.Iteration{Exec: "default", Tags: metrics.Tags{"scenario": "default"}})
			if err != nil {
				t.Fatalf("iteration: %v (log %s)", err, log)
			}
		}
	}
	reg := run.Registry
	if got := reg.Get("iterations").Sink.(*metrics.CounterSink).Sum; got != 4 {
		t.Errorf("iterations = %v, want 4", got)
	}
	if got := reg.Get("my_trend").Sink.(*metrics.TrendSink).Avg(); got != 20 {
		t.Errorf("my_trend avg = %v, want 20", got)
	}
	checks := reg.Get("checks").Sink.(*metrics.RateSink)
	if checks.Total != 8 || checks.Trues != 4 {
		t.Errorf("checks = %d/%d, want 4/8", checks.Trues, checks.Total)
	}
	g := run.Root.Groups()
	if len(g) != 1 || g[0].Path != "::g1" {
		t.Fatalf("groups = %v", g)
	}
	if p, f := g[0].Checks()[0].Counts(); p != 4 || f != 0 {
		t.Errorf("check 'is one' = %d/%d", p, f)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name, src, want string
		atInit          bool
	}{
		{"syntax error names file line col", "export default function() {\n  let x = ;\n}", "s.js: Line 2:11", true},
		{"init exception", "throw new Error('boom in init');\nexport default function(){}", "boom in init", true},
		{"unknown module", "import tracing from 'k6/experimental/tracing';\nexport default function(){}", `module "k6/experimental/tracing" is not supported`, true},
		{"metric outside init", "import { Trend } from 'k6/metrics';\nexport default function(){ new Trend('x'); }", "init context", false},
		{"open outside init", "export default function(){ open('x'); }", "init context", false},
		{"iteration exception", "export default function(){ throw new Error('iter boom'); }", "iter boom", false},
		{"async rejection", "export default async function(){ await null; throw new Error('async boom'); }", "async boom", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := js.NewBundle(writeScript(t, tc.src))
			var vu *js.VU
			if err == nil {
				run, _ := newRun()
				vu, err = b.NewVU(context.Background(), 1, run)
			}
			if !tc.atInit {
				if err != nil {
					t.Fatalf("init: %v", err)
				}
				err = vu.RunIteration(context.Background(), js.Iteration{Exec: "default"})
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestAbortAndInterrupt(t *testing.T) {
	b, err := js.NewBundle(writeScript(t, `import exec from 'k6/execution';
import { sleep } from 'k6';
export function ab() { exec.test.abort('enough'); throw new Error('not reached'); }
export default function() { sleep(10); while (true) {} }`))
	if err != nil {
		t.Fatal(err)
	}
	run, _ := newRun()
	var reason string
	run.Abort = func(r string) { reason = r }
	vu, err := b.NewVU(context.Background(), 1, run)
	if err != nil {
		t.Fatal(err)
	}
	err = vu.RunIteration(context.Background(), js.Iteration{Exec: "ab"})
	var abort *js.AbortError
	if !errors.As(err, &abort) || abort.Reason != "enough" || reason != "enough" {
		t.Fatalf("err = %v, reason %q", err, reason)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go cancel()
	if err := vu.RunIteration(ctx, js.Iteration{Exec: "default"}); !errors.Is(err, js.ErrInterrupted) {
		t.Fatalf("err = %v, want interrupted", err)
	}
	if got := run.Registry.Get("iterations").Sink.Empty(); !got {
		t.Error("an interrupted iteration must not count")
	}
}

// waitModule is a test module whose wait() returns once the VU's context
// ended, as k6's sleep does when an iteration is stopped.
func waitModule(vu modules.VU) modules.Instance {
	named := map[string]any{"wait": func() { <-vu.Context().Done() }}
	return modules.Static{Named: named}
}

func init() { modules.Register("k6/x/testwait", modules.ModuleFunc(waitModule)) }

// TestCallStoppedWhileWaiting checks that a call whose function returned
// only because its context ended is interrupted, whether or not the
// interrupt reached the runtime before the function returned.
func TestCallStoppedWhileWaiting(t *testing.T) {
	vu := jstest.NewVU(t, `import { wait } from 'k6/x/testwait';
export function waits() { wait(); return 'returned'; }
export default function () {}
`)
	for i := range 200 {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Millisecond, cancel)
		if _, err := vu.Call(ctx, "waits"); !errors.Is(err, js.ErrInterrupted) {
			t.Fatalf("call %d: err = %v, want interrupted", i, err)
		}
		cancel()
	}
}
