// Package k6browser is the k6/browser module: the browser object, its
// BrowserContext, Page, Locator, ElementHandle, JSHandle, Keyboard, Mouse
// and Response, as k6 documents them, over internal/chromium.
//
// Each VU gets its own Chromium, launched at its first use in a
// scenario whose options.browser.type is 'chromium'. As in k6, the
// contexts and pages an iteration opened are closed when it ends; the
// process itself is kept for the VU's next iterations (launching one takes
// seconds) and closed when the run ends. Methods k6 documents as async
// return promises: their work runs off the VU's goroutine and the promise
// settles on its event loop.
package k6browser

import (
	"os"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// Name is the import specifier of the module.
const Name = "k6/browser"

// New returns the module: its named export browser, also a member of its
// default export.
func New() modules.Module {
	return modules.ModuleFunc(func(vu modules.VU) modules.Instance {
		m := &instance{vu: vu}
		m.chrome = &vuBrowser{m: m}
		if run := vu.State().Run; run != nil {
			// Registered with the module, so thresholds may name them.
			m.chrome.samples = newSampler(run)
		}
		return m
	})
}

// instance is the module in one VU.
type instance struct {
	vu     modules.VU
	chrome *vuBrowser
	// browserObj is the exported browser object.
	browserObj *sobek.Object
}

// Exports returns the browser object.
func (m *instance) Exports() modules.Exports {
	rt := m.vu.Runtime()
	b := m.browserObject()
	m.browserObj = b
	def := rt.NewObject()
	_ = def.Set("browser", b)
	return modules.Exports{Default: def, Named: map[string]any{"browser": b}}
}

// getenv returns a K6_BROWSER_* setting: from the process environment the
// runner was given, else from the real one.
func (m *instance) getenv(key string) string {
	if env := m.vu.State().Run.ProcessEnv; env != nil {
		return env[key]
	}
	return os.Getenv(key)
}

// rt returns the VU's runtime.
func (m *instance) rt() *sobek.Runtime { return m.vu.Runtime() }
