package modules

import (
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/usefullatency/usefullatency/internal/cpugate"
	"github.com/usefullatency/usefullatency/internal/pktcap"
	"github.com/usefullatency/usefullatency/metrics"
)

// Run is the part of a test run shared by all its VUs.
type Run struct {
	Engine   *metrics.Engine
	Registry *metrics.Registry
	Builtin  *metrics.Builtin
	Root     *metrics.Group
	// Tags are the run-wide tags (options.tags and --tag).
	Tags metrics.Tags
	// Env is what scripts see as __ENV.
	Env map[string]string
	// Log receives console output and iteration errors.
	Log io.Writer
	// Abort stops the whole test, as exec.test.abort() does.
	Abort func(reason string)
	// Fail marks the test as failed and lets it go on, as
	// exec.test.fail() does; nil outside a run (init code of VU 0).
	Fail func(reason string)
	// Info reports the progress of the run to k6/execution.
	Info ExecutionInfo
	// Options is the consolidated options, as exec.test.options shows them.
	Options map[string]any
	// Shared holds data built once and shared by all VUs (SharedArray).
	Shared SharedStore
	// InsecureSkipTLSVerify disables certificate checks of probes' clients.
	InsecureSkipTLSVerify bool
	// Capture, when set, returns the packet capture that stamps each byte
	// the probes receive with the arrival of its own TCP segment
	// (--probe-capture); nil when there is none. The first call may open
	// it.
	Capture func() *pktcap.Capture
	// ProbeNetHTTP reads every stream of the probes through net/http, not
	// the reactor (--probe-transport nethttp).
	ProbeNetHTTP bool
	// Secrets are the secret sources k6/secrets reads (--secret-source);
	// nil when none is configured.
	Secrets Secrets
	// JS bounds how many VUs run JavaScript at once (nil: no bound).
	JS *cpugate.Gate
	// ProcessEnv is the environment of the process, by key, where
	// k6/browser reads its K6_BROWSER_* settings as k6 does (not __ENV);
	// nil reads the real environment.
	ProcessEnv map[string]string

	ends endHooks // see AtEnd
}

// Secrets looks up secret values for k6/secrets. Get returns the value of
// key in the source called source ("default" is the default source), and
// masks it in the run's log lines from then on. It is safe for concurrent
// use and may block (a source that fetches over the network).
type Secrets interface {
	Get(source, key string) (string, error)
}

// ExecutionInfo reports instance-wide execution counters.
type ExecutionInfo interface {
	VUsActive() int64
	VUsInitialized() int64
	IterationsCompleted() int64
	IterationsInterrupted() int64
	Elapsed() time.Duration
}

// ScenarioInfo describes the scenario an iteration belongs to.
type ScenarioInfo struct {
	Name, Executor, Exec string
	StartTime            time.Time
	// Progress returns the scenario's progress from 0 to 1.
	Progress func() float64
	// Browser is the scenario's options.browser.type ("chromium"), empty
	// when its VUs get no browser.
	Browser string
}

// State is a VU's view of the run: its identity, the current iteration and
// the tags its samples carry.
type State struct {
	Run *Run
	// VUID is the VU's id on this instance (__VU, exec.vu.idInInstance).
	VUID int64
	// VUIDInTest is the VU's id unique across the instances of an
	// execution segment sequence (exec.vu.idInTest).
	VUIDInTest int64
	// Iteration is the VU's own iteration counter (__ITER), from 0.
	Iteration int64
	// IterationInInstance and IterationInTest are the iteration's index in
	// its scenario on this instance and across all instances.
	IterationInInstance, IterationInTest int64
	// Scheduled is when the current iteration was due (zero outside
	// iterations); probes report their lateness against it.
	Scheduled time.Time
	// Row is the current trace-replay iteration's row as a JSON object
	// (exec.scenario.row); nil for the other executors.
	Row []byte
	// VUScenarioIteration counts this VU's iterations in the current scenario.
	VUScenarioIteration int64
	Scenario            *ScenarioInfo
	// Tags are attached to every sample the VU emits. Replace, don't mutate.
	Tags metrics.Tags
	// VUTags are the tags the script set with exec.vu.tags; they persist
	// across the VU's iterations.
	VUTags metrics.Tags
	// Metadata are set by the script with exec.vu.metrics.metadata and
	// persist across the VU's iterations; Push attaches them to every
	// sample. Replace, don't mutate.
	Metadata metrics.Tags
	Group    *metrics.Group
	// CookieJar returns the VU's cookie jar of the current iteration, the
	// one k6/http sends and fills; CookieJarOf returns the jar of a
	// script's CookieJar value (a jar param). k6/http sets both when it is
	// loaded (nil before); the WebSocket modules use them for their
	// handshakes. Call them on the VU's goroutine.
	CookieJar   func() http.CookieJar
	CookieJarOf func(v any) (http.CookieJar, bool)
	// Turn is the VU's turn at Run.JS: held while its JavaScript runs.
	Turn *cpugate.Turn

	iterationEnd []func() // see AtIterationEnd
}

// Blocking runs wait, which blocks the VU without running JavaScript (a
// request, a sleep), with the VU's JavaScript turn given to another VU
// meanwhile. Callbacks wait runs that call JavaScript go through Holding.
func Blocking(vu VU, wait func()) {
	vu.State().Turn.Blocking(vu.Context(), wait)
}

// Holding runs fn, a callback of a request the VU is blocked in (see
// cpugate.Turn.Hold): at once, with a turn when one is free.
func Holding(vu VU, fn func() error) error {
	return vu.State().Turn.Hold(fn)
}

// Push sends samples to the run's metrics engine, with the VU's metadata
// on those that carry none of their own.
func (s *State) Push(samples ...metrics.Sample) {
	s.Run.Engine.Push(WithMetadata(samples, s.Metadata)...)
}

// WithMetadata sets meta on the samples that carry no metadata of their
// own and returns them. Modules that push from other goroutines take the
// VU's Metadata when the request starts and attach it with this.
func WithMetadata(samples []metrics.Sample, meta metrics.Tags) []metrics.Sample {
	if len(meta) == 0 {
		return samples
	}
	for i := range samples {
		if samples[i].Metadata == nil {
			samples[i].Metadata = meta
		}
	}
	return samples
}

// SharedStore keeps values built once per run, by name.
type SharedStore struct {
	mu     sync.Mutex
	values map[string]any
}

// GetOrBuild returns the value stored under name, building it with build on
// first use. Concurrent callers wait for the first build.
func (s *SharedStore) GetOrBuild(name string, build func() (any, error)) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.values[name]; ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return nil, err
	}
	if s.values == nil {
		s.values = make(map[string]any)
	}
	s.values[name] = v
	return v, nil
}

// IntOption returns the whole number the consolidated options hold under
// name (a k6 option such as "maxRedirects"), and whether they hold one.
func (r *Run) IntOption(name string) (int, bool) {
	if r == nil {
		return 0, false
	}
	switch v := r.Options[name].(type) {
	case float64:
		return int(v), true
	case int64:
		return int(v), true
	case int:
		return v, true
	}
	return 0, false
}
