// Package k6secrets is the "k6/secrets" JavaScript module and the secret
// sources behind it, as k6 v1 has them: `--secret-source` names the
// sources (mock, file, url; see Open), the script reads a value with
// `await secrets.get(key)` from the default source or
// `await secrets.source(name).get(key)` from a named one, and every value
// handed out is masked as ***SECRET_REDACTED*** in the run's log lines from
// then on (Manager.Redact). The package is named after the module's import
// path, like k6timers.
package k6secrets

import (
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// Name is the module's import specifier.
const Name = "k6/secrets"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newInstance) }

type instance struct{ vu modules.VU }

func newInstance(vu modules.VU) modules.Instance { return instance{vu} }

// Exports returns the default export only, as k6 does: an object with
// get(key) and source(name); with no named export,
// `import { get } from 'k6/secrets'` is a link error, as in k6.
func (i instance) Exports() modules.Exports {
	obj := i.sourceObject(DefaultSource)
	_ = obj.Set("source", i.sourceObject)
	return modules.Exports{Default: obj, Named: map[string]any{}}
}

// sourceObject returns the object whose get(key) reads the source called
// name. It exists whatever the name: an unknown source rejects get.
func (i instance) sourceObject(name string) *sobek.Object {
	obj := i.vu.Runtime().NewObject()
	_ = obj.Set("get", func(key string) *sobek.Promise { return i.get(name, key) })
	return obj
}

// get returns a promise of the value of key in the source called name. The
// lookup runs off the VU's goroutine (a url source fetches it) and the
// promise settles on the VU's event loop: resolved with the value, or
// rejected with the error, whose text is k6's ("no value", "no secret
// source with name \"x\" is configured", "no secret sources are
// configured"). It works in the init context too. When the VU's context
// ends first (the end of gracefulStop, a signal) the promise is rejected
// at once, so a slow source never holds the VU; the lookup goes on and
// keeps its value for the next get.
func (i instance) get(name, key string) *sobek.Promise {
	promise, resolve, reject := i.vu.Runtime().NewPromise()
	secrets := i.secrets()
	if secrets == nil {
		_ = reject(errNoSources)
		return promise
	}
	ctx, done := i.vu.Context(), i.vu.RegisterCallback()
	type answer struct {
		value string
		err   error
	}
	answered := make(chan answer, 1)
	go func() {
		value, err := secrets.Get(name, key)
		answered <- answer{value, err}
	}()
	go func() {
		var a answer
		select {
		case a = <-answered:
		case <-ctx.Done():
			a.err = ctx.Err()
		}
		done(func() error {
			if a.err != nil {
				return reject(a.err)
			}
			return resolve(a.value)
		})
	}()
	return promise
}

// secrets returns the run's sources, nil when there are none.
func (i instance) secrets() modules.Secrets {
	if st := i.vu.State(); st != nil && st.Run != nil {
		return st.Run.Secrets
	}
	return nil
}
