package js_test

import (
	"context"
	"testing"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/modules"
)

// delayModule is a test module whose delay(ms, v) returns a promise that a
// separate goroutine resolves through the VU's event loop.
type delayModule struct{}

func (delayModule) NewModuleInstance(vu modules.VU) modules.Instance { return delayInstance{vu} }

type delayInstance struct{ vu modules.VU }

func (d delayInstance) Exports() modules.Exports {
	return modules.Exports{Named: map[string]any{"delay": d.delay}}
}

func (d delayInstance) delay(ms int64, v sobek.Value) *sobek.Promise {
	p, resolve, _ := d.vu.Runtime().NewPromise()
	done := d.vu.RegisterCallback()
	go func() {
		time.Sleep(time.Duration(ms) * time.Millisecond) // the delay the promise stands for: resolved later, off the event loop
		done(func() error { return resolve(v) })
	}()
	return p
}

func init() { modules.Register("k6/x/testdelay", delayModule{}) }

func TestGoBackedPromises(t *testing.T) {
	b, err := js.NewBundle(writeScript(t, `import { delay } from 'k6/x/testdelay';
import { Counter } from 'k6/metrics';
const c = new Counter('sum');
export default async function () {
  const [a, b] = await Promise.all([delay(30, 1), delay(10, 2)]);
  c.add(a + b);
  const x = await delay(5, 4);
  c.add(x);
}`))
	if err != nil {
		t.Fatal(err)
	}
	run, _ := newRun()
	vu, err := b.NewVU(context.Background(), 1, run)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := vu.RunIteration(context.Background(), js.Iteration{Exec: "default"}); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 35*time.Millisecond {
		t.Fatalf("iteration ended after %v, before its promises settled", el)
	}
	if got := run.Registry.Get("sum").Sink.Empty(); got {
		t.Fatal("no samples")
	}
	if got := run.Registry.Get("iterations").Sink.(interface{ Empty() bool }).Empty(); got {
		t.Fatal("iteration not counted")
	}
}

func TestExecutionAndTags(t *testing.T) {
	b, err := js.NewBundle(writeScript(t, `import exec from 'k6/execution';
import { check, randomSeed } from 'k6';
export default function () {
  exec.vu.tags['tenant'] = 'acme';
  if (exec.vu.tags.tenant !== 'acme') throw new Error('tag not set');
  if (exec.vu.idInTest !== 7 || __VU !== 7) throw new Error('vu id ' + exec.vu.idInTest);
  if (exec.scenario.name !== 'sc') throw new Error('scenario ' + exec.scenario.name);
  randomSeed(3); const a = Math.random(); randomSeed(3);
  if (Math.random() !== a) throw new Error('randomSeed is not deterministic');
  try { check(1, { boom: () => { throw new Error('in check'); } }); } catch (e) { return; }
  throw new Error('a throwing check must rethrow');
}
export function tagged() {
  if (exec.vu.tags.tenant !== 'acme') throw new Error('tag lost between iterations');
}`))
	if err != nil {
		t.Fatal(err)
	}
	run, _ := newRun()
	vu, err := b.NewVU(context.Background(), 7, run)
	if err != nil {
		t.Fatal(err)
	}
	err = vu.RunIteration(context.Background(), js.Iteration{Exec: "default",
		Scenario: &modules.ScenarioInfo{Name: "sc"}, Tags: map[string]string{"scenario": "sc"}})
	if err != nil {
		t.Fatal(err)
	}
	checks := run.Registry.Get("checks")
	if r := checks.Sink; r.Empty() {
		t.Fatal("a throwing check must record a failure")
	}
	if err := vu.RunIteration(context.Background(), js.Iteration{Exec: "tagged",
		Scenario: &modules.ScenarioInfo{Name: "sc"}, Tags: map[string]string{"scenario": "sc"}}); err != nil {
		t.Fatal(err)
	}
	if vu.State().Tags["tenant"] != "acme" {
		t.Fatal("exec.vu.tags must persist across the VU's iterations")
	}
}
