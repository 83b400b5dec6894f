package output

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/metrics"
)

func init() { register("influxdb", newInfluxDB) }

// InfluxDB writes every sample to an InfluxDB 1.x database as a line
// protocol point, as k6's influxdb output does: the measurement is the
// metric name, the field value the sample's value, the tags its tags (less
// K6_INFLUXDB_TAGS_AS_FIELDS, written as fields). Samples wait in a bounded
// buffer; every interval, when one of concurrentWrites writers is free, the
// buffer goes out in requests of at most batchSize points. A failed write
// loses the rest of its batch, warns once, and is counted in the
// end-of-run line: the run is never slowed nor failed by the server.
type InfluxDB struct {
	cfg    influxConfig
	client *influxClient
	log    io.Writer

	mu      sync.Mutex
	pending []metrics.Sample
	dropped int // samples refused because pending was full

	// ctx ends every request; Stop cancels it once its grace period is
	// over.
	ctx     context.Context
	cancel  context.CancelFunc
	writers chan struct{} // a token per free writer
	done    chan struct{}
	stopped chan struct{}
	started bool

	// The counts of the writes, under statsMu.
	statsMu  sync.Mutex
	writes   int
	failures int
	lost     int // points of failed writes
	skipped  int // NaN and infinite values
	warned   bool
	lastErr  error
}

var _ Output = (*InfluxDB)(nil)

func newInfluxDB(p Params) (Output, error) {
	cfg, err := influxSettings(p)
	if err != nil {
		return nil, err
	}
	o := &InfluxDB{
		cfg: cfg, client: newInfluxClient(cfg), log: p.Log,
		writers: make(chan struct{}, cfg.concurrentWrites),
		done:    make(chan struct{}), stopped: make(chan struct{}),
	}
	if o.log == nil {
		o.log = io.Discard
	}
	for range cfg.concurrentWrites {
		o.writers <- struct{}{}
	}
	o.ctx, o.cancel = context.WithCancel(context.Background())
	return o, nil
}

// Description names the output for the banner, the password redacted.
func (o *InfluxDB) Description() string { return "influxdb (" + redact.URL(o.cfg.url) + ")" }

// Start creates the database (in the background: a slow server does not
// delay the run) and starts the periodic writes.
func (o *InfluxDB) Start() error {
	o.started = true
	go o.loop()
	return nil
}

// AddSamples buffers samples, dropping (and counting) those beyond the
// buffer's cap; it never blocks on encoding or I/O.
func (o *InfluxDB) AddSamples(s []metrics.Sample) {
	o.mu.Lock()
	if room := o.cfg.maxBuffered - len(o.pending); len(s) > room {
		o.dropped += len(s) - room
		s = s[:room]
	}
	o.pending = append(o.pending, s...)
	o.mu.Unlock()
}

// loop creates the database, then hands the buffer to a free writer every
// interval; at Stop it writes the rest.
func (o *InfluxDB) loop() {
	defer close(o.stopped)
	ctx, cancel := context.WithTimeout(o.ctx, o.cfg.timeout)
	if err := o.client.createDatabase(ctx); err != nil {
		o.failed(err, 0)
	}
	cancel()
	var wg sync.WaitGroup
	t := time.NewTicker(o.cfg.interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			o.handOff(&wg)
		case <-o.done:
			wg.Wait()
			o.writeAll(o.take())
			return
		}
	}
}

// handOff gives the buffer to a free writer, if there is one and the
// buffer holds samples; otherwise the samples wait for the next interval.
func (o *InfluxDB) handOff(wg *sync.WaitGroup) {
	select {
	case <-o.writers:
	default:
		return
	}
	batch := o.take()
	if len(batch) == 0 {
		o.writers <- struct{}{}
		return
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		o.writeAll(batch)
		o.writers <- struct{}{}
	}()
}

// take empties the buffer.
func (o *InfluxDB) take() []metrics.Sample {
	o.mu.Lock()
	defer o.mu.Unlock()
	batch := o.pending
	o.pending = nil
	return batch
}

// writeAll encodes and writes a batch, batchSize points a request. The
// first failed request ends it: the rest of the batch is lost with it, so
// a server that never answers holds a writer (and the end of the run) for
// one request timeout, not one per request.
func (o *InfluxDB) writeAll(batch []metrics.Sample) {
	enc := lineEncoder{asFields: o.cfg.asFields, divisor: precisions[o.cfg.precision].divisor}
	var body []byte
	for len(batch) > 0 {
		n := min(len(batch), o.cfg.batchSize)
		body = body[:0]
		points, skipped := 0, 0
		for i := range batch[:n] {
			var ok bool
			if body, ok = enc.appendPoint(body, &batch[i]); ok {
				points++
			} else {
				skipped++
			}
		}
		batch = batch[n:]
		o.count(skipped)
		if points == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(o.ctx, o.cfg.timeout)
		err := o.client.write(ctx, body)
		cancel()
		o.statsMu.Lock()
		o.writes++
		o.statsMu.Unlock()
		if err != nil {
			o.failed(err, points+len(batch))
			return
		}
	}
}

// count adds points skipped for their value.
func (o *InfluxDB) count(skipped int) {
	o.statsMu.Lock()
	o.skipped += skipped
	o.statsMu.Unlock()
}

// failed counts a failed request (a write of points, or CREATE DATABASE
// with none) and warns at the first one.
func (o *InfluxDB) failed(err error, points int) {
	o.statsMu.Lock()
	defer o.statsMu.Unlock()
	if points > 0 {
		o.failures++
		o.lost += points
	}
	o.lastErr = err
	if o.warned {
		return
	}
	o.warned = true
	fmt.Fprintf(o.log, "WARN influxdb: %s failed: %s; the run goes on, and the end of the run counts what was lost\n",
		o.request(points), o.message(err))
}

// request names a request of the output for a warning.
func (o *InfluxDB) request(points int) string {
	if points == 0 {
		return "CREATE DATABASE " + quoteIdent(o.cfg.db) + " at " + redact.URL(o.cfg.url)
	}
	return fmt.Sprintf("writing %d points to %s", points, redact.URL(o.cfg.url))
}

// message is an error on one line, redacted, with the configured password
// (and its Basic form) masked too should a server echo it (unless it is too
// short to tell from other text).
func (o *InfluxDB) message(err error) string {
	return o.client.creds.message(err)
}

// Stop writes what is buffered, waiting at most cfg.stopGrace for the
// writes in flight and the last ones, and prints one WARN line with what
// was lost or dropped, if anything. It never returns an error: a server
// that is down must not fail the run.
func (o *InfluxDB) Stop() error {
	grace := time.AfterFunc(o.cfg.stopGrace, o.cancel)
	defer grace.Stop()
	defer o.cancel()
	if o.started {
		close(o.done)
		<-o.stopped
	} else {
		o.writeAll(o.take())
	}
	o.mu.Lock()
	dropped := o.dropped
	o.mu.Unlock()
	o.statsMu.Lock()
	defer o.statsMu.Unlock()
	if o.failures == 0 && dropped == 0 && o.skipped == 0 {
		return nil
	}
	var parts []string
	if o.failures > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d writes failed, losing %d points (the last error: %s)",
			o.failures, o.writes, o.lost, o.message(o.lastErr)))
	}
	if dropped > 0 {
		parts = append(parts, fmt.Sprintf("%d points dropped because %d were already waiting to be written (K6_INFLUXDB_MAX_BUFFERED)",
			dropped, o.cfg.maxBuffered))
	}
	if o.skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d points skipped for a NaN or infinite value", o.skipped))
	}
	fmt.Fprintf(o.log, "WARN influxdb: %s: %s\n", redact.URL(o.cfg.url), strings.Join(parts, "; "))
	return nil
}
