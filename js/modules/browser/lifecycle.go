package k6browser

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/usefullatency/usefullatency/internal/chromium"
)

// launchTimeout bounds the start of a Chromium.
const launchTimeout = time.Minute

// closeTimeout bounds the closing of an iteration's contexts.
const closeTimeout = 10 * time.Second

// errNoContext is closeContext's error when there is no context.
var errNoContext = errors.New("there is no browser context to close: none was created, or it was closed already")

// vuBrowser is a VU's Chromium and what its current iteration opened in
// it. The methods that wait run on goroutines of their own, so its fields
// are locked.
type vuBrowser struct {
	m *instance

	launch sync.Mutex // held during a launch
	mu     sync.Mutex
	b      *chromium.Browser
	// version is the browser's product ("Chrome/…"), read at its launch.
	version string
	// current is browser.context(): the context open now, nil when none.
	current *jsContext
	// opened are the contexts this iteration opened, closed at its end.
	opened []*jsContext
	// hooked says the iteration's end will clean up.
	hooked bool
	// samples forwards the pages' browser_* samples; made with the
	// first launch.
	samples *sampler
}

// usable checks that the VU may use the browser now: in an iteration of
// a scenario whose options.browser.type is 'chromium'.
func (v *vuBrowser) usable() error {
	if v.m.vu.InInit() {
		return errors.New("the browser cannot be used in the init context: use it in the default function or a scenario's exec function")
	}
	sc := v.m.vu.State().Scenario
	if sc == nil {
		return errors.New("the browser can only be used in the iterations of a scenario whose options.browser.type is 'chromium' (not in setup, teardown or handleSummary)")
	}
	if sc.Browser != "chromium" {
		return fmt.Errorf("the scenario %q has no browser type: set options.scenarios.%s.options.browser.type to 'chromium' to use k6/browser", sc.Name, sc.Name)
	}
	return nil
}

// hook makes the iteration's end close what it opened; it runs on the
// VU's goroutine, at the first use of the browser in an iteration.
func (v *vuBrowser) hook() {
	v.mu.Lock()
	hooked := v.hooked
	v.hooked = true
	v.mu.Unlock()
	if !hooked {
		st := v.m.vu.State()
		st.AtIterationEnd(v.endIteration)
		v.sampler().begin(st)
	}
}

// browser returns the VU's Chromium, launched on first use or again when
// the last one died. It may be called from any goroutine.
func (v *vuBrowser) browser(ctx context.Context) (*chromium.Browser, error) {
	v.launch.Lock()
	defer v.launch.Unlock()
	v.mu.Lock()
	b := v.b
	v.mu.Unlock()
	if b != nil && b.Connected() {
		return b, nil
	}
	opts, err := chromium.OptionsFromEnv(v.m.getenv)
	if err != nil {
		return nil, err
	}
	opts.Samples = v.sampler().push
	lctx, cancel := context.WithTimeout(ctx, launchTimeout)
	defer cancel()
	b, err = chromium.Launch(lctx, opts)
	if err != nil {
		return nil, err
	}
	// The run closes the process when it ends, even if a VU never ran an
	// iteration again.
	v.m.vu.State().Run.AtEnd(b.Close)
	version, err := b.Version(lctx)
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("asking Chromium its version: %w", err)
	}
	v.mu.Lock()
	v.b, v.version = b, version
	v.mu.Unlock()
	return b, nil
}

// sampler returns the VU's sampler, made on first use when the module
// was not instantiated in a run.
func (v *vuBrowser) sampler() *sampler {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.samples == nil {
		v.samples = newSampler(v.m.vu.State().Run)
	}
	return v.samples
}

// connected reports whether the VU's Chromium runs.
func (v *vuBrowser) connected() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.b != nil && v.b.Connected()
}

// newContext opens the iteration's context with the settings o; it fails
// when one is open, as k6 allows one at a time.
func (v *vuBrowser) newContext(ctx context.Context, o chromium.ContextOptions) (*jsContext, error) {
	v.mu.Lock()
	busy := v.current != nil
	v.mu.Unlock()
	if busy {
		return nil, errors.New("a browser context is already open, and there can be only one: close it (browser.closeContext()) before opening another")
	}
	b, err := v.browser(ctx)
	if err != nil {
		return nil, err
	}
	c, err := b.NewContextWith(o)
	if err != nil {
		return nil, err
	}
	jc := &jsContext{v: v, c: c}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.current != nil {
		_ = c.Close(ctx)
		return nil, errors.New("a browser context is already open, and there can be only one")
	}
	v.current = jc
	v.opened = append(v.opened, jc)
	return jc, nil
}

// forget drops jc as the current context once it is closed.
func (v *vuBrowser) forget(jc *jsContext) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.current == jc {
		v.current = nil
	}
}

// endIteration closes every context the iteration opened, with its pages,
// as k6 does at the end of an iteration; the process stays for the next.
func (v *vuBrowser) endIteration() {
	v.mu.Lock()
	opened := v.opened
	v.opened, v.current, v.hooked = nil, nil, false
	v.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	for _, jc := range opened {
		_ = jc.c.Close(ctx)
	}
}
