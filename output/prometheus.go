package output

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

func init() { register("experimental-prometheus-rw", newPrometheusRW) }

// PrometheusRW sends the run's metrics to a Prometheus remote-write endpoint
// with k6's names: every interval it pushes, for each metric and tag set,
// the aggregate since the start of the run (k6_<name>_total for a Counter,
// k6_<name> for a Gauge, k6_<name>_rate for a Rate, one k6_<name>_<stat>
// per trend stat for a Trend; time values in seconds), then once more at
// Stop. Samples are only buffered by AddSamples; aggregation, encoding and
// the HTTP request happen on the buffer's goroutine.
type PrometheusRW struct {
	cfg    promConfig
	client *promClient
	buf    *buffer

	// Owned by push, on the buffer's goroutine (and by Stop once it ended).
	agg        *promAggregator
	req        writeRequest
	lastMillis int64
	pushes     int
	failures   int
	lastErr    error
	// log receives the cardinality warnings; warned reports the first.
	log    io.Writer
	warned bool
}

var _ Output = (*PrometheusRW)(nil)

// promConfig holds the settings of the output.
type promConfig struct {
	// url is the remote-write endpoint. Defaults to
	// http://localhost:9090/api/v1/write.
	url string
	// interval is the time between two pushes. Must be >0. Defaults to 5s.
	interval time.Duration
	// stats are the stats pushed for each Trend. Defaults to p(99).
	stats []trendStat
	// username and password, when set, authenticate with HTTP basic auth.
	username, password string
	// headers are added to every push request.
	headers map[string]string
	// insecure skips TLS certificate verification.
	insecure bool
	// maxSeries caps the aggregates kept (one per metric and tag set,
	// K6_PROMETHEUS_RW_MAX_SERIES); samples of further tag sets are
	// dropped and counted. Must be > 0. Defaults to 100,000.
	maxSeries int
}

// defaultMaxSeries is the default cap on series (aggregates).
const defaultMaxSeries = 100_000

// promPushTimeout bounds one push request, so a stalled endpoint delays the
// end of the run by at most this much.
const promPushTimeout = 10 * time.Second

func newPrometheusRW(p Params) (Output, error) {
	cfg, err := promSettings(p)
	if err != nil {
		return nil, err
	}
	o := &PrometheusRW{cfg: cfg, client: newPromClient(cfg), agg: newPromAggregator(cfg.stats), log: p.Log}
	if o.log == nil {
		o.log = io.Discard
	}
	o.agg.maxSeries = cfg.maxSeries
	o.buf = newBuffer(cfg.interval, o.push)
	o.buf.flushIdle = true // every push resends the aggregates since the start
	return o, nil
}

// promSettings reads k6's K6_PROMETHEUS_RW_* variables; a non-empty -o
// argument is the server URL and wins over the environment. Every invalid
// setting is reported at once.
func promSettings(p Params) (promConfig, error) {
	cfg := promConfig{url: "http://localhost:9090/api/v1/write", interval: 5 * time.Second, maxSeries: defaultMaxSeries}
	var errs []error
	if v := p.Env["K6_PROMETHEUS_RW_SERVER_URL"]; v != "" {
		cfg.url = v
	}
	if p.Arg != "" {
		cfg.url = p.Arg
	}
	if u, err := url.Parse(cfg.url); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("server URL %q: want an http:// or https:// URL", redact.URL(cfg.url)))
	}
	if v := p.Env["K6_PROMETHEUS_RW_PUSH_INTERVAL"]; v != "" {
		d, err := options.ParseDuration(v)
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("K6_PROMETHEUS_RW_PUSH_INTERVAL %q: want a positive duration", v))
		} else {
			cfg.interval = d
		}
	}
	stats := p.Env["K6_PROMETHEUS_RW_TREND_STATS"]
	if stats == "" {
		stats = "p(99)"
	}
	var err error
	if cfg.stats, err = parseTrendStats(stats); err != nil {
		errs = append(errs, fmt.Errorf("K6_PROMETHEUS_RW_TREND_STATS: %w", err))
	}
	cfg.username, cfg.password = p.Env["K6_PROMETHEUS_RW_USERNAME"], p.Env["K6_PROMETHEUS_RW_PASSWORD"]
	if cfg.headers, err = parseHeaderList(p.Env["K6_PROMETHEUS_RW_HTTP_HEADERS"]); err != nil {
		errs = append(errs, fmt.Errorf("K6_PROMETHEUS_RW_HTTP_HEADERS: %w", err))
	}
	if v := p.Env["K6_PROMETHEUS_RW_MAX_SERIES"]; v != "" {
		if n, err := strconv.Atoi(v); err != nil || n <= 0 {
			errs = append(errs, fmt.Errorf("K6_PROMETHEUS_RW_MAX_SERIES %q: want a positive integer", v))
		} else {
			cfg.maxSeries = n
		}
	}
	if v := p.Env["K6_PROMETHEUS_RW_INSECURE_SKIP_TLS_VERIFY"]; v != "" {
		if cfg.insecure, err = strconv.ParseBool(v); err != nil {
			errs = append(errs, fmt.Errorf("K6_PROMETHEUS_RW_INSECURE_SKIP_TLS_VERIFY %q: want true or false", v))
		}
	}
	return cfg, errors.Join(errs...)
}

// parseHeaderList reads "key1:value1,key2:value2".
func parseHeaderList(s string) (map[string]string, error) {
	out := map[string]string{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for kv := range strings.SplitSeq(s, ",") {
		k, v, ok := strings.Cut(kv, ":")
		if k = strings.TrimSpace(k); !ok || k == "" {
			return nil, fmt.Errorf("%q: want key:value", kv)
		}
		out[k] = strings.TrimSpace(v)
	}
	return out, nil
}

// Description names the output for the banner, the URL redacted.
func (o *PrometheusRW) Description() string {
	return "experimental-prometheus-rw (" + redact.URL(o.cfg.url) + ")"
}

// Start starts the periodic pushes.
func (o *PrometheusRW) Start() error {
	o.buf.start()
	return nil
}

// AddSamples buffers samples; it never blocks on aggregation or I/O.
func (o *PrometheusRW) AddSamples(s []metrics.Sample) { o.buf.add(s) }

// Stop pushes everything measured once more and reports failed pushes as
// one error. A failed push loses nothing for the next one: every push
// carries the aggregates since the start.
func (o *PrometheusRW) Stop() error {
	_ = o.buf.stop() // push reports its failures in o.failures, not here
	if o.agg.dropped > 0 {
		fmt.Fprintf(o.log, "WARN experimental-prometheus-rw: %d samples of tag sets beyond the cap of %d series were not pushed (K6_PROMETHEUS_RW_MAX_SERIES)\n",
			o.agg.dropped, o.cfg.maxSeries)
	}
	if o.failures == 0 {
		return nil
	}
	msg := o.client.creds.message(o.lastErr)
	return fmt.Errorf("%d of %d pushes to %s failed, the last with: %s", o.failures, o.pushes, redact.URL(o.cfg.url), msg)
}

// push folds a batch of samples into the aggregates and sends every
// series, stamped with the current time (strictly after the previous push,
// so Prometheus never sees two values of a series at one millisecond). It
// counts a failed push and returns nil: Stop reports the failures.
func (o *PrometheusRW) push(batch []metrics.Sample) error {
	o.agg.add(batch)
	if o.agg.dropped > 0 && !o.warned {
		o.warned = true
		fmt.Fprintf(o.log, "WARN experimental-prometheus-rw: %d series (metric × tag set) reached, the cap; samples of new tag sets are dropped — "+
			"a tag with a value per request (an id, a full URL) makes a series per request; raise K6_PROMETHEUS_RW_MAX_SERIES to keep more\n", o.cfg.maxSeries)
	}
	if o.agg.empty() {
		return nil
	}
	ms := max(time.Now().UnixMilli(), o.lastMillis+1)
	o.lastMillis = ms
	o.req.reset()
	o.agg.appendTo(&o.req, ms)
	ctx, cancel := context.WithTimeout(context.Background(), promPushTimeout)
	defer cancel()
	o.pushes++
	if err := o.client.push(ctx, o.req.bytes()); err != nil {
		o.failures++
		o.lastErr = err
	}
	return nil
}
