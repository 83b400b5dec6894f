package aggregate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/result"
)

// Limits of the posts an Aggregator takes: the defaults of Config.
const (
	// DefaultMaxPostBytes bounds a post's body as sent (gzip-compressed):
	// 64 MiB, about 13 million trend values.
	DefaultMaxPostBytes = 64 << 20
	// DefaultPostsInFlight is how many posts are read and decoded at once;
	// more are answered 503 with Retry-After.
	DefaultPostsInFlight = 4
	// DefaultReadTimeout bounds reading one request, headers and body.
	DefaultReadTimeout = time.Minute
	// decodedFactor and decodedFloor bound what a post decompresses to:
	// decodedFactor times its size, or decodedFloor when that is more
	// (honest results decompress to 1.3 to 10 times their size).
	decodedFactor = 32
	decodedFloor  = 4 << 20
	// maxRunnerID bounds the HeaderRunner value.
	maxRunnerID = 64
	// maxMessage bounds an error message sent back or logged.
	maxMessage = 300
)

// receive takes a runner's post: it checks who posts, reads and decodes
// the result within the limits, checks it against the others' and keeps
// it as that runner's latest.
func (a *Aggregator) receive(w http.ResponseWriter, r *http.Request) {
	if no := a.authorize(r); no != nil {
		a.refuse(w, r, no)
		return
	}
	select {
	case a.slots <- struct{}{}:
		defer func() { <-a.slots }()
	default:
		w.Header().Set("Retry-After", "1")
		a.refuse(w, r, &refusal{http.StatusServiceUnavailable, fmt.Sprintf("%d posts are being read already; try again in a second", cap(a.slots))})
		return
	}
	id := r.Header.Get(HeaderRunner)
	if len(id) > maxRunnerID || !visibleASCII(id) {
		a.refuse(w, r, &refusal{http.StatusBadRequest, fmt.Sprintf("a %s header is up to %d visible ASCII characters", HeaderRunner, maxRunnerID)})
		return
	}
	f, decode, no := a.read(w, r)
	if no != nil {
		a.refuse(w, r, no)
		return
	}
	o := owner{id: id, host: hostOf(r.RemoteAddr)}
	next, no := a.keep(o, f, apiPort(r.Header.Get(HeaderAPI)), r.Header.Get(HeaderFinal) == "true", decode)
	if no != nil {
		a.refuse(w, r, no)
		return
	}
	w.Header().Set(HeaderNextPost, next.String())
	w.WriteHeader(http.StatusNoContent)
}

// read reads and decodes a post's body: at most MaxPostBytes as sent,
// within the read timeout, decompressing to at most decodedFactor times
// its size (decodedFloor for a small post) and Limits.MaxSize, with the
// result package's bounds on what the header declares. decode is what
// decoding took, the network's time left out.
func (a *Aggregator) read(w http.ResponseWriter, r *http.Request) (f *result.File, decode time.Duration, no *refusal) {
	limit := a.cfg.MaxPostBytes
	if r.ContentLength > limit {
		return nil, 0, a.tooLarge()
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			return nil, 0, a.tooLarge()
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, 0, &refusal{http.StatusRequestTimeout, fmt.Sprintf("the post was not read within %s", a.cfg.ReadTimeout)}
		}
		return nil, 0, &refusal{http.StatusBadRequest, "reading the post: " + err.Error()}
	}
	start := time.Now()
	limits := result.Limits{MaxSize: min(a.cfg.Limits.MaxSize, max(decodedFactor*int64(len(body)), decodedFloor))}
	f, err = limits.Read(bytes.NewReader(body))
	decode = time.Since(start)
	switch {
	case errors.Is(err, result.ErrTooLarge):
		return nil, 0, &refusal{http.StatusRequestEntityTooLarge, err.Error()}
	case err != nil:
		return nil, 0, &refusal{http.StatusBadRequest, err.Error()}
	}
	return f, decode, nil
}

// tooLarge is the refusal of a post over MaxPostBytes.
func (a *Aggregator) tooLarge() *refusal {
	return &refusal{http.StatusRequestEntityTooLarge, fmt.Sprintf("a post is at most %d bytes (aggregate --max-post-size)", a.cfg.MaxPostBytes)}
}

// keep checks a decoded post of o against the others and keeps it as o's
// latest; it returns the time the runner should wait before its next post.
func (a *Aggregator) keep(o owner, f *result.File, port string, final bool, decode time.Duration) (time.Duration, *refusal) {
	segs, err := segmentsOf(f)
	if err != nil {
		return 0, &refusal{http.StatusBadRequest, err.Error()}
	}
	key := segmentKey(segs)
	f.Path = fmt.Sprintf("the result of %s (segment %s)", o, key)
	head := withoutValues(f)
	a.mu.Lock()
	defer a.mu.Unlock()
	if no := a.claim(o, key, segs, f); no != nil {
		return 0, no
	}
	if no := a.fits(key, head); no != nil {
		return 0, no
	}
	st := a.runners[key]
	if st == nil {
		st = &runnerState{owner: o, segs: segs}
		a.runners[key] = st
		if a.testID == "" {
			a.testID = f.TestID
		}
		if a.sequence == "" {
			a.sequence = f.Sequence
		}
	}
	st.file, st.head, st.decode, st.final = f, head, decode, final
	if port != "" {
		st.api = net.JoinHostPort(o.host, port)
	}
	a.changed = true
	if a.isComplete() && !a.closed {
		a.closed = true
		close(a.complete)
	}
	return a.pace(), nil
}

// fits checks that the result whose header is head merges with the other
// runners' latest and that the merge can be judged (metric types,
// thresholds, groups), on the headers alone: a post that would make the
// final merge fail is refused instead. a.mu is held.
func (a *Aggregator) fits(key string, head *result.File) *refusal {
	var heads []*result.File
	for _, k := range a.keys() {
		if k != key {
			heads = append(heads, a.runners[k].head)
		}
	}
	heads = append(heads, head) // last: the merge's errors name it
	merged, _, err := result.Merge(heads)
	if err != nil {
		return &refusal{http.StatusConflict, err.Error()}
	}
	if _, err := merged.Materialize(a.cfg.NoThresholds); err != nil {
		return &refusal{http.StatusBadRequest, err.Error()}
	}
	return nil
}

// withoutValues is f without its trend values: what checking it against
// other results needs, at the cost of its header.
func withoutValues(f *result.File) *result.File {
	h := *f
	h.Metrics = make([]result.Metric, len(f.Metrics))
	for i, m := range f.Metrics {
		m.Sink.Values = nil
		m.Submetrics = append([]result.Submetric(nil), m.Submetrics...)
		for k := range m.Submetrics {
			m.Submetrics[k].Sink.Values = nil
		}
		h.Metrics[i] = m
	}
	if f.Breakdown != nil {
		b := *f.Breakdown
		b.Buckets = make([]result.Bucket, len(f.Breakdown.Buckets))
		for i, bk := range f.Breakdown.Buckets {
			bk.Sinks = append([]result.BucketSink(nil), bk.Sinks...)
			for k := range bk.Sinks {
				bk.Sinks[k].Sink.Values = nil
			}
			b.Buckets[i] = bk
		}
		h.Breakdown = &b
	}
	return &h
}

// apiPort is the port of a HeaderAPI value (":6565", or "host:6565" from
// older runners, whose host is ignored); "" when there is none.
func apiPort(v string) string {
	_, port, err := net.SplitHostPort(strings.TrimSpace(v))
	if err != nil {
		return ""
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return ""
	}
	return port
}

// refuse answers a refused post and logs why, once per poster and reason.
func (a *Aggregator) refuse(w http.ResponseWriter, r *http.Request, no *refusal) {
	msg := oneLine(no.msg)
	if no.status != http.StatusServiceUnavailable {
		a.refused.Add(1)
		host := hostOf(r.RemoteAddr)
		a.warnOnce(fmt.Sprint(no.status, host, msg), "refused a post from %s (%d %s): %s", host, no.status, http.StatusText(no.status), msg)
	}
	if no.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="usefullatency aggregate"`)
	}
	http.Error(w, msg, no.status)
}

// oneLine makes a message safe for a log line: control characters become
// spaces and it is cut to maxMessage bytes.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if len(s) > maxMessage {
		s = strings.ToValidUTF8(s[:maxMessage], "") + "…"
	}
	return s
}
