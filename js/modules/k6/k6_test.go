package k6_test

import (
	"context"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/js/jstest"
)

func TestCheckRecordsEachCondition(t *testing.T) {
	r := jstest.Run(context.Background(), t, `
import { check } from 'k6';
export default function () {
  const all = check(200, { 'is 200': (v) => v === 200, 'is 404': (v) => v === 404, 'truthy': 1 }, { kind: 'x' });
  if (all !== false) throw new Error('check returned ' + all);
}
`, 1)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	got := map[string]float64{}
	for _, s := range jstest.Of(r.Samples, "checks") {
		if s.Tags["kind"] != "x" {
			t.Errorf("check %q tags %v: want the extra tag kind=x", s.Tags["check"], s.Tags)
		}
		got[s.Tags["check"]] = s.Value
	}
	want := map[string]float64{"is 200": 1, "is 404": 0, "truthy": 1}
	if len(got) != len(want) {
		t.Fatalf("checks %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("check %q = %v, want %v", k, got[k], v)
		}
	}
}

func TestCheckConditionThatThrows(t *testing.T) {
	r := jstest.Run(context.Background(), t, `
import { check } from 'k6';
export default function () {
  try {
    check(1, { 'throws': () => { throw new TypeError('boom'); } });
  } catch (e) {
    if (!(e instanceof TypeError) || e.message !== 'boom') throw new Error('caught ' + e);
    return;
  }
  throw new Error('check did not rethrow');
}
`, 1)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	s := jstest.Of(r.Samples, "checks")
	if len(s) != 1 || s[0].Value != 0 {
		t.Fatalf("samples %v: want one failed check", s)
	}
}

func TestCheckInInitContext(t *testing.T) {
	r := jstest.Run(context.Background(), t, `
import { check } from 'k6';
check(1, { ok: true });
export default function () {}
`, 1)
	if r.Err == nil || !strings.Contains(r.Err.Error(), "init context") {
		t.Fatalf("err %v: want the init context error", r.Err)
	}
}

// TestCheckWithoutConditions throws, as k6 does, where a missing object of
// conditions once crashed the VU.
func TestCheckWithoutConditions(t *testing.T) {
	r := jstest.Run(context.Background(), t, `
import { check } from 'k6';
export default function () {
  const msgs = [];
  for (const f of [() => check(1), () => check(1, null)]) {
    try { f(); msgs.push('returned'); } catch (e) { msgs.push(String(e)); }
  }
  if (!msgs[0].includes('needs an object of conditions') || !msgs[1].includes('TypeError')) throw new Error(msgs.join(' | '));
}
`, 1)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if n := len(jstest.Of(r.Samples, "checks")); n != 0 {
		t.Errorf("%d checks samples, want none", n)
	}
}
