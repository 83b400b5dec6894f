package k6secrets_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
	k6secrets "github.com/usefullatency/usefullatency/js/modules/secrets"
)

// prelude imports the module and defines expect(cond, what), which throws
// naming what when cond is false, and rejection(promise), the text of the
// promise's rejection ("" when it resolves).
const prelude = `import secrets from 'k6/secrets';
function expect(cond, what) { if (!cond) throw new Error('expected ' + what); }
async function rejection(p) { try { await p; return ''; } catch (e) { return String(e); } }
`

// withSecrets gives the run the sources of specs, and masks their values
// in its log.
func withSecrets(t *testing.T, specs ...string) func(*modules.Run) {
	t.Helper()
	m, err := k6secrets.Open(specs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return func(r *modules.Run) {
		r.Secrets = m
		r.Log = m.Redact(r.Log)
	}
}

func TestGet(t *testing.T) {
	for _, c := range []struct {
		name  string
		specs []string
		src   string
	}{
		{"default of one source", []string{"mock=token=abc123,other=x"}, `
  expect(await secrets.get('token') === 'abc123', 'the value of token');
  expect(await secrets.source('mock').get('other') === 'x', 'the source called after its type');
  expect(await secrets.source('default').get('token') === 'abc123', 'the default source by its name');`},
		{"named sources, one default", []string{"mock=name=first,cool=one", "mock=name=second,cool=two,default"}, `
  expect(await secrets.get('cool') === 'two', 'the default source second');
  expect(await secrets.source('first').get('cool') === 'one', 'first by its name');
  expect(await secrets.source('second').get('cool') === 'two', 'second by its name');`},
		{"missing key", []string{"mock=token=abc123"}, `
  const err = await rejection(secrets.get('nope'));
  expect(err === 'no value', 'k6\'s "no value", got ' + err);`},
		{"unknown source", []string{"mock=token=abc123"}, `
  const src = secrets.source('vault');
  expect(typeof src.get === 'function', 'an object for any name');
  const err = await rejection(src.get('token'));
  expect(err === 'no secret source with name "vault" is configured', 'the unknown source named, got ' + err);`},
		{"two sources, no default", []string{"mock=name=a,k=1", "mock=name=b,k=2"}, `
  const err = await rejection(secrets.get('k'));
  expect(err === 'no secret source with name "default" is configured', 'no default, got ' + err);
  expect(await secrets.source('b').get('k') === '2', 'b by its name');`},
		{"no source", nil, `
  const err = await rejection(secrets.get('token'));
  expect(err === 'no secret sources are configured', 'no source, got ' + err);`},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := prelude + "export default async function () {" + c.src + "\n}\n"
			r := jstest.Run(context.Background(), t, src, 1, withSecrets(t, c.specs...))
			if r.Err != nil {
				t.Fatalf("script failed: %v\nlog:\n%s", r.Err, r.Log)
			}
		})
	}
}

// TestInitContext awaits a secret at the top level of the script, as k6
// allows, and logs it from the init code and an iteration: the log shows
// the mask, never the value.
func TestInitContext(t *testing.T) {
	src := prelude + `
const token = await secrets.get('token');
console.log('init sees ' + token);
export default async function () {
  expect(token === 'abc123', 'the value read in the init context');
  console.log(await secrets.get('token'));
}
`
	r := jstest.Run(context.Background(), t, src, 2, withSecrets(t, "mock=token=abc123"))
	if r.Err != nil {
		t.Fatalf("script failed: %v\nlog:\n%s", r.Err, r.Log)
	}
	if strings.Contains(r.Log, "abc123") {
		t.Errorf("the log shows the value:\n%s", r.Log)
	}
	if n := strings.Count(r.Log, redact.ValueMask); n != 3 {
		t.Errorf("the mask shows %d times, want 3 (init and two iterations):\n%s", n, r.Log)
	}
}

// TestUncaughtRejection lets a missing secret's rejection end the
// iteration: its error is k6's message.
func TestUncaughtRejection(t *testing.T) {
	src := prelude + `export default async function () { await secrets.get('nope'); }`
	r := jstest.Run(context.Background(), t, src, 1, withSecrets(t, "mock=token=abc123"))
	if r.Err == nil || !strings.Contains(r.Err.Error(), "no value") {
		t.Errorf("iteration error = %v, want one saying no value", r.Err)
	}
}

// TestNoNamedExports checks that, as in k6, the module has a default
// export only.
func TestNoNamedExports(t *testing.T) {
	src := `import { get } from 'k6/secrets';
export default function () {}
`
	r := jstest.Run(context.Background(), t, src, 1)
	if r.Err == nil || !strings.Contains(r.Err.Error(), "get") {
		t.Errorf("importing get: error %v, want one naming get", r.Err)
	}
}

// blockingSecrets answers no lookup until release is closed.
type blockingSecrets struct{ release chan struct{} }

func (b blockingSecrets) Get(string, string) (string, error) {
	<-b.release
	return "late", nil
}

// TestSlowSourceInterrupted ends an iteration whose lookup hangs: the
// promise is rejected when the iteration's context ends, and the VU does
// not wait for the source.
func TestSlowSourceInterrupted(t *testing.T) {
	release := make(chan struct{})
	time.AfterFunc(10*time.Second, func() { close(release) }) // bounds the test if the VU waits
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	src := prelude + `export default async function () { await secrets.get('token'); }`
	r := jstest.Run(ctx, t, src, 1, func(r *modules.Run) { r.Secrets = blockingSecrets{release} })
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("the iteration ended after %v, want soon after its context (100ms)", elapsed)
	}
	if r.Err == nil {
		t.Errorf("the iteration succeeded, want it interrupted")
	}
}
