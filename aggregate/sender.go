package aggregate

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/result"
)

// Defaults of a Sender.
const (
	// DefaultInterval is the time between two posts.
	DefaultInterval = 2 * time.Second
	// DefaultStopTimeout bounds what Stop waits for: the post in flight
	// and the last one.
	DefaultStopTimeout = 3 * time.Second
	// unreachedStopTimeout bounds Stop instead when no post ever reached
	// the aggregator though one was tried: it is most likely gone.
	unreachedStopTimeout = time.Second
	// abandonWait bounds how long Stop waits for the posts it abandoned to
	// return (they do at once, their context canceled), so that a warning
	// they write is written before Stop returns.
	abandonWait = time.Second
	// requestTimeout bounds one post while the run goes on.
	requestTimeout = 10 * time.Second
	// costFactor spaces posts out when taking and encoding a result gets
	// slow: a post starts no sooner than costFactor times the previous
	// one's preparation after it, so a runner spends at most about
	// 1/costFactor of a core on them.
	costFactor = 5
	// minRetry is the least wait before the final post is tried again
	// after a busy aggregator's 503.
	minRetry = 100 * time.Millisecond
)

// SenderConfig is what a Sender posts, where and how often.
type SenderConfig struct {
	// URL is the aggregator's base URL (http or https); the posts go to
	// URL + Path.
	URL string
	// Interval is the time between two posts; DefaultInterval when 0.
	Interval time.Duration
	// StopTimeout bounds Stop; DefaultStopTimeout when 0.
	StopTimeout time.Duration
	// APIAddress is the runner's REST API address, "" when it has none;
	// only its port is sent (HeaderAPI): the aggregator reaches it at the
	// address the posts come from.
	APIAddress string
	// Token is the aggregator's shared token, sent as "Authorization:
	// Bearer <Token>" on every post; "" sends none. It is never logged.
	Token string
	// Snapshot takes the runner's result so far; it may lock the metrics
	// engine briefly, never for I/O.
	Snapshot func() *result.File
	// Log takes the one warning line of a failing aggregator.
	Log io.Writer
	// Client sends the posts; a default client when nil. Redirects are
	// never followed: the result goes to URL or nowhere.
	Client *http.Client
}

// Sender posts a runner's result to an aggregator: every Interval while the
// run goes on and once at its end. It never blocks the run: a post runs on
// its own goroutine, a tick while one is in flight is skipped, and failures
// give one warning line.
type Sender struct {
	cfg      SenderConfig
	endpoint string
	// id identifies this runner to the aggregator (HeaderRunner); port is
	// its REST API's port, "" without one.
	id, port string
	ctx      context.Context
	cancel   context.CancelFunc
	done     chan struct{}
	loopDone chan struct{}
	inFlight sync.WaitGroup
	busy     atomic.Bool
	// warnMu makes the one warning whole before another warn returns, so
	// that Stop returns with the line written whichever post wrote it.
	warnMu sync.Mutex
	warned bool
	// tried is true once a periodic post began.
	tried atomic.Bool
	// started is true after Start: Stop then waits for the loop.
	started bool
	// prepared is how long taking and encoding the last result took, in
	// nanoseconds; the loop spaces posts by costFactor times it.
	prepared atomic.Int64
	// paced is the least time between two posts the aggregator last asked
	// for (HeaderNextPost), in nanoseconds.
	paced atomic.Int64
	// Posted and Skipped count the posts that reached the aggregator and
	// the ticks skipped while a post was in flight or too soon; Busy the
	// posts the aggregator answered 503 (too many posts at once).
	Posted, Skipped, Busy atomic.Int64
}

// NewSender checks cfg and returns a Sender; Start begins the posts.
func NewSender(cfg SenderConfig) (*Sender, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("aggregator URL %q: want http://host:port", redact.URL(cfg.URL))
	}
	if cfg.Token != "" && CheckToken(cfg.Token) != nil {
		return nil, fmt.Errorf("%s: want 8 to 4096 visible ASCII characters without spaces (the value is not shown)", TokenEnv)
	}
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.StopTimeout <= 0 {
		cfg.StopTimeout = DefaultStopTimeout
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{}
	}
	client := *cfg.Client
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	cfg.Client = &client
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + Path
	var port string
	if _, p, err := net.SplitHostPort(cfg.APIAddress); err == nil && p != "" && p != "0" {
		port = p
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Sender{
		cfg: cfg, endpoint: u.String(), id: rand.Text(), port: port,
		ctx: ctx, cancel: cancel, done: make(chan struct{}), loopDone: make(chan struct{}),
	}, nil
}

// Start posts the result every Interval until Stop.
func (s *Sender) Start() {
	s.started = true
	go func() {
		defer close(s.loopDone)
		t := time.NewTicker(s.cfg.Interval)
		defer t.Stop()
		var last time.Time
		for {
			select {
			case <-s.done:
				return
			case now := <-t.C:
				gap := max(s.cfg.Interval, costFactor*time.Duration(s.prepared.Load()), time.Duration(s.paced.Load()))
				if now.Sub(last) < gap-s.cfg.Interval/10 || !s.busy.CompareAndSwap(false, true) {
					s.Skipped.Add(1)
					continue
				}
				last = now
				s.tried.Store(true)
				s.inFlight.Add(1)
				go func() {
					defer s.inFlight.Done()
					defer s.busy.Store(false)
					s.post(s.ctx, false, requestTimeout)
				}()
			}
		}
	}()
}

// Stop ends the periodic posts and sends the last result, marked final.
// It returns within StopTimeout whatever the aggregator does (within 1 s
// when no post ever reached it): the post in flight and the last one share
// that time, and what is still pending then is abandoned.
func (s *Sender) Stop() {
	budget := s.cfg.StopTimeout
	if s.Posted.Load() == 0 && s.tried.Load() {
		budget = min(budget, unreachedStopTimeout)
	}
	deadline := time.Now().Add(budget)
	close(s.done)
	if s.started {
		<-s.loopDone
	}
	waited := make(chan struct{})
	go func() { s.inFlight.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(time.Until(deadline)):
	}
	s.cancel() // a post still in flight is abandoned: it returns at once
	select {
	case <-waited:
	case <-time.After(abandonWait):
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	for {
		retry := s.post(ctx, true, time.Until(deadline))
		if retry < 0 {
			return
		}
		if time.Until(deadline) <= retry {
			s.warn(errors.New("the aggregator was busy (503) until the run's end: the last result was not sent"))
			return
		}
		select {
		case <-time.After(retry):
		case <-ctx.Done():
		}
	}
}

// post takes the result, encodes it and sends it; a failure is logged
// once. When the aggregator is busy (503) it returns the time it asks to
// wait (Retry-After), else -1.
func (s *Sender) post(ctx context.Context, final bool, timeout time.Duration) (retry time.Duration) {
	start := time.Now()
	var body bytes.Buffer
	if err := result.Write(&body, s.cfg.Snapshot()); err != nil {
		s.warn(err)
		return -1
	}
	s.prepared.Store(int64(time.Since(start)))
	if timeout <= 0 {
		s.warn(errors.New("no time left to send the last result"))
		return -1
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.endpoint, &body)
	if err != nil {
		s.warn(err)
		return -1
	}
	s.setHeaders(req.Header, final)
	resp, err := s.cfg.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("no answer within %s", timeout.Round(time.Millisecond))
			if s.ctx.Err() != nil {
				err = errors.New("no answer before the run ended")
			}
		}
		s.warn(err)
		return -1
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	switch {
	case resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") != "":
		wait := time.Second
		if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && n >= 0 {
			wait = min(max(time.Duration(n)*time.Second, minRetry), time.Minute)
		}
		s.paced.Store(int64(wait))
		s.Busy.Add(1)
		return wait
	case resp.StatusCode/100 == 3:
		s.warn(fmt.Errorf("%s to %s: redirects are not followed, the result was not sent there", resp.Status, redact.URL(resp.Header.Get("Location"))))
		return -1
	case resp.StatusCode/100 != 2:
		s.warn(fmt.Errorf("%s: %s", resp.Status, redact.Body(msg, 200, s.cfg.Token)))
		return -1
	}
	if d, err := time.ParseDuration(resp.Header.Get(HeaderNextPost)); err == nil && d >= 0 {
		s.paced.Store(int64(min(d, time.Minute)))
	}
	s.Posted.Add(1)
	return -1
}

// setHeaders gives a post its headers: the token, the runner's id and
// REST API port, whether it is the final one.
func (s *Sender) setHeaders(h http.Header, final bool) {
	h.Set("Content-Type", "application/octet-stream")
	h.Set(HeaderRunner, s.id)
	if s.cfg.Token != "" {
		h.Set("Authorization", "Bearer "+s.cfg.Token)
	}
	if s.port != "" {
		h.Set(HeaderAPI, ":"+s.port)
	}
	if final {
		h.Set(HeaderFinal, "true")
	}
}

// warn writes the first failure only: a lost aggregator gives one line,
// not one per post.
func (s *Sender) warn(err error) {
	s.warnMu.Lock()
	defer s.warnMu.Unlock()
	if s.warned {
		return
	}
	s.warned = true
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	// An aggregator, or what answers in its place, may echo the request.
	msg := redact.Secrets(err.Error(), s.cfg.Token)
	fmt.Fprintf(s.cfg.Log, "WARN aggregator %s: %s; the run goes on whatever the aggregator does, the posts are tried again (later failures are not logged)\n",
		redact.URL(s.cfg.URL), redact.Text(oneLine(msg)))
}
