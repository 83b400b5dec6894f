package aggregate

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/result"
)

// Config is how an Aggregator judges and when it is done.
type Config struct {
	// Interval is the time between two evaluations of the thresholds;
	// DefaultInterval when 0.
	Interval time.Duration
	// Runners is the number of runners of the test: the aggregator is
	// done when that many sent their final result. 0 means done when every
	// runner that posted sent its final result and their segments cover
	// the whole test.
	Runners int
	// NoThresholds turns the thresholds off: status lines only, no stop.
	NoThresholds bool
	// Log takes the status lines and warnings.
	Log io.Writer
	// Client sends the stop requests; a client with a 5 s timeout when nil.
	Client *http.Client
}

// Aggregator keeps the latest result of each runner of one test, keyed by
// its execution segment, and judges the merged result.
type Aggregator struct {
	cfg Config

	mu      sync.Mutex
	testID  string
	runners map[string]*runnerState
	// changed is true when a post came since the last evaluation.
	changed bool
	// aborted is true once an abortOnFail threshold was crossed.
	aborted  bool
	complete chan struct{}
	closed   bool
	// evalCost is what the last evaluation took.
	evalCost time.Duration

	// logMu orders the log lines and guards warned, the keys of the
	// warnings already given.
	logMu  sync.Mutex
	warned map[string]bool
}

// runnerState is what the aggregator knows of one runner.
type runnerState struct {
	file *result.File
	// decode is what decoding its last post took.
	decode  time.Duration
	api     string
	final   bool
	stopped bool
}

// New returns an Aggregator; serve Handler and call Run.
func New(cfg Config) *Aggregator {
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 5 * time.Second}
	}
	return &Aggregator{cfg: cfg, runners: map[string]*runnerState{}, complete: make(chan struct{}), warned: map[string]bool{}}
}

// Handler takes the runners' posts on Path and answers "ok" on GET /ping
// (readiness).
func (a *Aggregator) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+Path, a.receive)
	mux.HandleFunc("GET /ping", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	return mux
}

// receive decodes a runner's result and keeps it as that runner's latest.
func (a *Aggregator) receive(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	f, err := result.Read(r.Body)
	decode := time.Since(start)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	key := strings.Join(f.Segments, ",")
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.testID == "" {
		a.testID = f.TestID
	} else if f.TestID != a.testID {
		a.warnOnce("test:"+key, "a runner (segment %s) from %s posted a result of another test; it is left out", key, r.RemoteAddr)
		http.Error(w, "a result of another test than the aggregator's", http.StatusConflict)
		return
	}
	st := a.runners[key]
	if st == nil {
		st = &runnerState{}
		a.runners[key] = st
	}
	st.file, st.decode = f, decode
	st.api = apiAddress(r.Header.Get(HeaderAPI), r.RemoteAddr)
	st.final = st.final || r.Header.Get(HeaderFinal) == "true"
	a.changed = true
	if a.isComplete() && !a.closed {
		a.closed = true
		close(a.complete)
	}
	w.Header().Set(HeaderNextPost, a.pace().String())
	w.WriteHeader(http.StatusNoContent)
}

// paceFactor is how many times its own cost a window of aggregation lasts
// at least: decoding every runner's latest post and judging their merge
// take at most about 1/paceFactor of a core.
const paceFactor = 2

// pace is the time between two evaluations, and the least time between two
// posts of a runner: the interval, or paceFactor times what one window
// costs when that is longer (posts are cumulative, so they grow with the
// test); a.mu is held.
func (a *Aggregator) pace() time.Duration {
	cost := a.evalCost
	for _, st := range a.runners {
		cost += st.decode
	}
	return max(a.cfg.Interval, paceFactor*cost)
}

// apiAddress is the runner's REST API address with an unspecified host
// replaced by the host the post came from.
func apiAddress(api, remote string) string {
	if api == "" {
		return ""
	}
	host, port, err := net.SplitHostPort(api)
	if err != nil {
		return ""
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		if h, _, err := net.SplitHostPort(remote); err == nil {
			host = h
		}
	}
	return net.JoinHostPort(host, port)
}

// isComplete says whether every expected runner sent its final result;
// a.mu is held.
func (a *Aggregator) isComplete() bool {
	finals := 0
	for _, st := range a.runners {
		if st.final {
			finals++
		}
	}
	if a.cfg.Runners > 0 {
		return finals >= a.cfg.Runners
	}
	if finals == 0 || finals < len(a.runners) {
		return false
	}
	_, warnings, err := result.Merge(a.files())
	return err == nil && len(warnings) == 0
}

// files returns the latest result of every runner, by segment; a.mu is held.
func (a *Aggregator) files() []*result.File {
	keys := make([]string, 0, len(a.runners))
	for k := range a.runners {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*result.File, len(keys))
	for i, k := range keys {
		out[i] = a.runners[k].file
	}
	return out
}

// Run evaluates the thresholds on the merged results every Interval,
// printing a status line and stopping every runner when an abortOnFail
// threshold is crossed, until every runner sent its final result or ctx
// ends. It returns the merged result then (nil when no runner posted) and
// whether an abortOnFail threshold stopped the test.
func (a *Aggregator) Run(ctx context.Context) (merged *result.File, aborted bool, err error) {
	t := time.NewTicker(a.cfg.Interval)
	defer t.Stop()
	var last time.Time
	for {
		select {
		case now := <-t.C:
			a.mu.Lock()
			pace := a.pace()
			a.mu.Unlock()
			if now.Sub(last) < pace-a.cfg.Interval/10 {
				continue
			}
			last = now
			a.evaluate()
		case <-a.complete:
			return a.finish()
		case <-ctx.Done():
			return a.finish()
		}
	}
}

// finish merges the latest results once more.
func (a *Aggregator) finish() (*result.File, bool, error) {
	a.mu.Lock()
	files := a.files()
	a.mu.Unlock()
	if len(files) == 0 {
		return nil, false, nil
	}
	merged, warnings, err := result.Merge(files)
	for _, w := range warnings {
		a.logLine("WARN " + w)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return merged, a.aborted, err
}

// evaluate merges the latest results, when one changed, and judges them.
func (a *Aggregator) evaluate() {
	a.mu.Lock()
	if !a.changed {
		a.mu.Unlock()
		return
	}
	a.changed = false
	start := time.Now()
	defer func() {
		a.mu.Lock()
		a.evalCost = time.Since(start)
		a.mu.Unlock()
	}()
	files := a.files()
	finals := 0
	for _, st := range a.runners {
		if st.final {
			finals++
		}
	}
	a.mu.Unlock()
	merged, _, err := result.Merge(files)
	if err != nil {
		a.warnOnce("merge:"+err.Error(), "%v", err)
		return
	}
	run, err := merged.Materialize(a.cfg.NoThresholds)
	if err != nil {
		a.warnOnce("materialize:"+err.Error(), "%v", err)
		return
	}
	_, abort := metrics.EvalThresholds(run.Registry, run.Duration, false)
	a.logLine(statusLine(merged, run, len(files), finals))
	if abort {
		a.abort(run.Crossed())
	}
}

// statusLine sums the merged result up in one line.
func statusLine(f *result.File, run *result.Run, runners, finals int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INFO aggregate: %d runners (%d finished), segments %s, %s", runners, finals,
		strings.Join(f.Segments, " "), run.Duration.Round(100*time.Millisecond))
	if m := run.Registry.Get("iterations"); m != nil {
		if c, ok := m.Sink.(*metrics.CounterSink); ok {
			fmt.Fprintf(&b, ", %d iterations", int64(c.Sum))
		}
	}
	if crossed := run.Crossed(); len(crossed) > 0 {
		fmt.Fprintf(&b, ", thresholds crossed: %s", strings.Join(crossed, ", "))
	} else if len(f.Thresholds) > 0 && !f.NoThresholds {
		b.WriteString(", thresholds pass")
	}
	return b.String()
}

// abort stops every runner not stopped yet through its REST API; runners
// that post later are stopped at the next evaluation.
func (a *Aggregator) abort(crossed []string) {
	a.mu.Lock()
	first := !a.aborted
	a.aborted = true
	var targets []*runnerState
	for _, st := range a.runners {
		if !st.stopped && !st.final {
			st.stopped = true
			targets = append(targets, st)
		}
	}
	a.mu.Unlock()
	if first {
		a.logLine("WARN aggregate: thresholds on metrics '" + strings.Join(crossed, ", ") + "' crossed with abortOnFail: stopping every runner")
	}
	var wg sync.WaitGroup
	for _, st := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.stop(st.api)
		}()
	}
	wg.Wait()
}

// stop sends PATCH /v1/status {stopped: true} to one runner.
func (a *Aggregator) stop(api string) {
	if api == "" {
		a.warnOnce("noapi", "a runner serves no REST API (--address): it cannot be stopped")
		return
	}
	req, err := http.NewRequest(http.MethodPatch, "http://"+api+"/v1/status", strings.NewReader(stopBody))
	if err != nil {
		a.warnOnce("stop:"+api, "stopping the runner at %s: %v", api, err)
		return
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.cfg.Client.Do(req)
	if err != nil {
		a.warnOnce("stop:"+api, "stopping the runner at %s: %v", api, err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		a.warnOnce("stop:"+api, "stopping the runner at %s: %s", api, resp.Status)
	}
}

// warnOnce logs a warning the first time its key comes.
func (a *Aggregator) warnOnce(key, format string, args ...any) {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	if a.warned[key] {
		return
	}
	a.warned[key] = true
	fmt.Fprintf(a.cfg.Log, "WARN aggregate: "+format+"\n", args...)
}

// logLine writes one line; handlers and the evaluation loop log
// concurrently.
func (a *Aggregator) logLine(line string) {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	fmt.Fprintln(a.cfg.Log, line)
}
