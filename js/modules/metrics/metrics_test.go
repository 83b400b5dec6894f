package k6metrics_test

import (
	"context"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/js/jstest"
)

func TestAddPushesSamples(t *testing.T) {
	r := jstest.Run(context.Background(), t, `
import { Trend, Rate } from 'k6/metrics';
const t = new Trend('wait', true);
const r = new Rate('ok');
export default function () {
  const a = t.add(12.5, { step: 'one' });
  const b = r.add(true);
  const c = t.add('not a number');
  if (a !== true || b !== true || c !== false) throw new Error('add returned ' + [a, b, c]);
}
`, 1)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	w := jstest.Of(r.Samples, "wait")
	if len(w) != 1 || w[0].Value != 12.5 || w[0].Tags["step"] != "one" {
		t.Fatalf("wait samples %v: want one of 12.5 tagged step=one", w)
	}
	if ok := jstest.Of(r.Samples, "ok"); len(ok) != 1 || ok[0].Value != 1 {
		t.Fatalf("ok samples %v: want one of 1", ok)
	}
	if !strings.Contains(r.Log, "not a valid value") {
		t.Errorf("log %q: want the dropped sample's warning", r.Log)
	}
}

func TestAddInInitContextThrows(t *testing.T) {
	r := jstest.Run(context.Background(), t, `
import { Counter } from 'k6/metrics';
const c = new Counter('hits');
let msg = '';
try { c.add(1); } catch (e) { msg = String(e); }
export default function () {
  if (!msg.includes("can't be added to in the init context")) throw new Error('init add: ' + msg);
}
`, 1)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
}
