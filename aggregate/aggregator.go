package aggregate

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/result"
)

// Config is how an Aggregator judges, whom it trusts and when it is done.
type Config struct {
	// Interval is the time between two evaluations of the thresholds;
	// DefaultInterval when 0.
	Interval time.Duration
	// Runners is the number of runners of the test: the aggregator is
	// done when that many sent their final result, and refuses more. 0
	// means done when every runner that posted sent its final result and
	// their segments cover the whole test.
	Runners int
	// NoThresholds turns the thresholds off: status lines only, no stop.
	NoThresholds bool
	// Token is the shared secret every post must carry as
	// "Authorization: Bearer <Token>" (see CheckToken). Empty: posts are
	// taken from this machine only (loopback).
	Token string
	// RunnerAPIToken, when set, is sent as "Authorization: Bearer" to the
	// runners' REST API with the stop.
	RunnerAPIToken string
	// MaxPostBytes bounds a post's body as sent; DefaultMaxPostBytes when
	// 0.
	MaxPostBytes int64
	// Limits bound decoding a post (K6_RESULT_MAX_SIZE); the result
	// package's defaults when zero.
	Limits result.Limits
	// PostsInFlight bounds the posts read and decoded at once;
	// DefaultPostsInFlight when 0.
	PostsInFlight int
	// ReadTimeout bounds reading one request (Serve);
	// DefaultReadTimeout when 0.
	ReadTimeout time.Duration
	// MaxConns bounds the connections held at once (Serve);
	// DefaultMaxConns when 0.
	MaxConns int
	// Log takes the status lines and warnings.
	Log io.Writer
	// Client sends the stop requests; a client with a 5 s timeout when nil.
	// Redirects are never followed.
	Client *http.Client
}

// maxWarnings bounds the distinct warnings an Aggregator logs (refused
// posts give one per poster and reason).
const maxWarnings = 100

// Aggregator keeps the latest result of each runner of one test, keyed by
// its execution segment, and judges the merged result.
type Aggregator struct {
	cfg Config
	// tokenSum is the SHA-256 of Config.Token, nil without a token.
	tokenSum []byte
	// slots holds a place per post being read.
	slots chan struct{}
	// refused counts the refused posts.
	refused atomic.Int64

	mu sync.Mutex
	// testID and sequence are the test's, from the first post kept.
	testID, sequence string
	runners          map[string]*runnerState
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
	// owner posted segs first; no one else may post them.
	owner owner
	segs  []options.Segment
	// file is its latest result, head the same without trend values.
	file, head *result.File
	// decode is what decoding its last post took.
	decode time.Duration
	// api is where its REST API is: the host its posts come from, the
	// port it announced; "" when it announced none.
	api     string
	final   bool
	stopped bool
}

// New returns an Aggregator; serve it (Serve, or Handler) and call Run.
func New(cfg Config) *Aggregator {
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.MaxPostBytes <= 0 {
		cfg.MaxPostBytes = DefaultMaxPostBytes
	}
	if cfg.Limits.MaxSize <= 0 {
		cfg.Limits.MaxSize = result.DefaultMaxSize
	}
	if cfg.PostsInFlight <= 0 {
		cfg.PostsInFlight = DefaultPostsInFlight
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = DefaultReadTimeout
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = DefaultMaxConns
	}
	cfg.Client = stopClient(cfg.Client)
	a := &Aggregator{cfg: cfg, runners: map[string]*runnerState{}, complete: make(chan struct{}),
		warned: map[string]bool{}, slots: make(chan struct{}, cfg.PostsInFlight)}
	if cfg.Token != "" {
		sum := sha256.Sum256([]byte(cfg.Token))
		a.tokenSum = sum[:]
	}
	return a
}

// Handler takes the runners' posts on Path and answers "ok" on GET /ping
// (readiness). Serve adds the server's limits around it.
func (a *Aggregator) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+Path, a.receive)
	mux.HandleFunc("GET /ping", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	return mux
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

// isComplete says whether every expected runner sent its final result:
// Config.Runners of them, or without it every runner that posted, their
// segments covering the whole test; a.mu is held.
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
	return finals > 0 && finals == len(a.runners) && len(a.missing()) == 0
}

// keys returns the runners' keys, sorted; a.mu is held.
func (a *Aggregator) keys() []string {
	keys := make([]string, 0, len(a.runners))
	for k := range a.runners {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// files returns the latest result of every runner, by segment; a.mu is held.
func (a *Aggregator) files() []*result.File {
	keys := a.keys()
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

// finish merges the latest results once more, saying which runners did
// not send their final result and which segments no runner posted.
func (a *Aggregator) finish() (*result.File, bool, error) {
	a.mu.Lock()
	files := a.files()
	var unfinished []string
	for key, st := range a.runners {
		if !st.final {
			unfinished = append(unfinished, key)
		}
	}
	a.mu.Unlock()
	if n := a.refused.Load(); n > 0 {
		a.logLine(fmt.Sprintf("WARN aggregate: %d posts were refused (the lines \"refused a post\" say why); they are not in the result", n))
	}
	if len(files) == 0 {
		return nil, false, nil
	}
	if len(unfinished) > 0 {
		sort.Strings(unfinished)
		a.logLine("WARN aggregate: no final result for segments " + strings.Join(unfinished, " ") + ": their latest posts are judged")
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
	} else if run.Judged() {
		b.WriteString(", thresholds pass")
	}
	return b.String()
}

// warnOnce logs a warning the first time its key comes.
func (a *Aggregator) warnOnce(key, format string, args ...any) {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	if a.warned[key] {
		return
	}
	if len(a.warned) == maxWarnings {
		a.warned[key] = true
		fmt.Fprintf(a.cfg.Log, "WARN aggregate: %d warnings given; the next ones are not logged\n", maxWarnings)
		return
	}
	if len(a.warned) > maxWarnings {
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
