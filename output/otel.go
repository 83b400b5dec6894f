package output

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	"google.golang.org/grpc/credentials"

	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/metrics"
)

func init() {
	register("experimental-opentelemetry", newOtel)
	register("opentelemetry", newOtel) // k6 ≥ 1.4's name of the same output
}

// otelMaxBuffered bounds the samples held between two flushes (about 56
// bytes each, so ~56 MB); a run that outpaces the recording loses samples
// from the output, counted in a warning, rather than growing without end.
const otelMaxBuffered = 1_000_000

// otelExportTimeout bounds one export, so a collector that accepts and
// never answers delays an export (and the end of the run) by at most this.
const otelExportTimeout = 10 * time.Second

// Otel sends the run's metrics to an OpenTelemetry collector over OTLP
// (gRPC or HTTP) with the OpenTelemetry Go SDK, as k6's
// experimental-opentelemetry output does: samples are buffered by
// AddSamples, recorded into the SDK's instruments every flush interval on
// the buffer's goroutine, and exported by the SDK's periodic reader every
// export interval (cumulative temporality), then once more at Stop. A
// failed export is a warning: the run and its exit code are not affected.
type Otel struct {
	typ      string
	cfg      otelConfig
	buf      *buffer
	provider *sdkmetric.MeterProvider
	exporter *otelExporter
	// Owned by the buffer's goroutine (and by Stop once it ended).
	instruments *otelInstruments
	// stopTimeout bounds the final export at Stop.
	stopTimeout time.Duration
}

var _ Output = (*Otel)(nil)

func newOtel(p Params) (Output, error) {
	if p.Arg != "" {
		return nil, fmt.Errorf("takes no argument (set K6_OTEL_* variables)")
	}
	cfg, err := otelSettings(p.Env)
	if err != nil {
		return nil, err
	}
	inner, err := newOtlpExporter(cfg)
	if err != nil {
		return nil, err
	}
	log := p.Log
	if log == nil {
		log = io.Discard
	}
	creds := newSecrets("", "", cfg.headers)
	routeSDKErrors.Do(func() { otel.SetErrorHandler(sdkErrorHandler{log: log, creds: creds}) })
	exp := &otelExporter{Exporter: inner, log: log, name: p.Type, endpoint: cfg.describeEndpoint(), creds: creds}
	res := resource.NewSchemaless(attribute.String("service.name", cfg.serviceName), attribute.String("service.version", cfg.serviceVersion))
	provider := sdkmetric.NewMeterProvider(
		sdkmetric.WithResource(res),
		sdkmetric.WithCardinalityLimit(cfg.maxSeries),
		sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp,
			sdkmetric.WithInterval(cfg.exportInterval), sdkmetric.WithTimeout(otelExportTimeout))),
	)
	o := &Otel{typ: p.Type, cfg: cfg, provider: provider, exporter: exp, stopTimeout: otelExportTimeout + time.Second}
	o.instruments = newOtelInstruments(provider.Meter("k6"), cfg, p.Type, log)
	o.buf = newBuffer(cfg.flushInterval, o.record)
	o.buf.max = otelMaxBuffered
	return o, nil
}

// newOtlpExporter builds the SDK's OTLP exporter of the configured kind.
// Retries are off: a failed export is counted, and the next one carries
// the cumulative values again.
func newOtlpExporter(cfg otelConfig) (sdkmetric.Exporter, error) {
	ctx := context.Background()
	if cfg.exporter == "http" {
		opts := []otlpmetrichttp.Option{otlpmetrichttp.WithHeaders(cfg.headers), otlpmetrichttp.WithTimeout(otelExportTimeout),
			otlpmetrichttp.WithRetry(otlpmetrichttp.RetryConfig{Enabled: false})}
		if strings.Contains(cfg.endpoint, "://") {
			opts = append(opts, otlpmetrichttp.WithEndpointURL(cfg.endpoint))
		} else {
			opts = append(opts, otlpmetrichttp.WithEndpoint(cfg.endpoint), otlpmetrichttp.WithURLPath(cfg.urlPath))
		}
		if cfg.insecure {
			opts = append(opts, otlpmetrichttp.WithInsecure())
		} else if cfg.tls != nil {
			opts = append(opts, otlpmetrichttp.WithTLSClientConfig(cfg.tls))
		}
		return otlpmetrichttp.New(ctx, opts...)
	}
	opts := []otlpmetricgrpc.Option{otlpmetricgrpc.WithHeaders(cfg.headers), otlpmetricgrpc.WithTimeout(otelExportTimeout),
		otlpmetricgrpc.WithRetry(otlpmetricgrpc.RetryConfig{Enabled: false})}
	if strings.Contains(cfg.endpoint, "://") {
		opts = append(opts, otlpmetricgrpc.WithEndpointURL(cfg.endpoint))
	} else {
		opts = append(opts, otlpmetricgrpc.WithEndpoint(cfg.endpoint))
	}
	if cfg.insecure {
		opts = append(opts, otlpmetricgrpc.WithInsecure())
	} else if cfg.tls != nil {
		opts = append(opts, otlpmetricgrpc.WithTLSCredentials(credentials.NewTLS(cfg.tls)))
	}
	return otlpmetricgrpc.New(ctx, opts...)
}

// describeEndpoint is the collector's address for messages, redacted.
func (c otelConfig) describeEndpoint() string {
	if strings.Contains(c.endpoint, "://") {
		return c.exporter + " " + redact.URL(c.endpoint)
	}
	if c.exporter == "http" {
		return "http " + c.endpoint + c.urlPath
	}
	return "grpc " + c.endpoint
}

// Description names the output and its collector; headers are not shown.
func (o *Otel) Description() string {
	return o.typ + " (" + o.exporter.endpoint + ")"
}

// Start starts the periodic recording of buffered samples.
func (o *Otel) Start() error {
	o.buf.start()
	return nil
}

// AddSamples buffers samples; it never blocks on the SDK or on I/O.
func (o *Otel) AddSamples(s []metrics.Sample) { o.buf.add(s) }

// record puts a batch of samples into the instruments.
func (o *Otel) record(batch []metrics.Sample) error {
	ctx := context.Background()
	for _, s := range batch {
		if s.Metric != nil && s.Metric.Parent == nil {
			o.instruments.record(ctx, s)
		}
	}
	return nil
}

// Stop records what is buffered, exports once more (within stopTimeout)
// and prints one warning when exports failed. It returns nil: a collector
// that cannot be reached never fails the run.
func (o *Otel) Stop() error {
	_ = o.buf.stop() // record never fails
	if n := o.buf.droppedSamples(); n > 0 {
		fmt.Fprintf(o.exporter.log, "WARN %s: %d samples were not exported: more than %d arrived between two flushes (K6_OTEL_FLUSH_INTERVAL)\n",
			o.typ, n, o.buf.max)
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.stopTimeout)
	defer cancel()
	o.exporter.stopping.Store(true)
	_ = o.provider.Shutdown(ctx) // export failures are counted by o.exporter
	o.exporter.summarize()
	return nil
}

// routeSDKErrors installs sdkErrorHandler once per process.
var routeSDKErrors sync.Once

// sdkErrorHandler prints the errors the SDK reports through its global
// handler (which would otherwise go to the standard logger) as redacted
// WARN lines on the log of the first OpenTelemetry output. Export errors
// do not come here: otelExporter reports them.
type sdkErrorHandler struct {
	log   io.Writer
	creds secrets
}

func (h sdkErrorHandler) Handle(err error) {
	fmt.Fprintf(h.log, "WARN opentelemetry SDK: %s\n", h.creds.message(err))
}

// otelExporter wraps the SDK's exporter to count exports and failures and
// to print warnings itself (redacted), instead of the SDK's global error
// handler. It reports success to the reader, so nothing reaches that
// handler.
type otelExporter struct {
	sdkmetric.Exporter
	log            io.Writer
	name, endpoint string
	// creds are the header values masked in messages.
	creds secrets

	// stopping is set by Stop before the reader shuts down: the reader
	// then cancels a periodic export still in flight, which is no failure
	// (the last export, made next, carries the totals).
	stopping atomic.Bool

	mu       sync.Mutex
	exports  int
	failures int
	lastErr  string
}

// Export sends one collection; the first failure is printed at once, cut
// and redacted: the HTTP exporter quotes the collector's whole answer. An
// export canceled by the shutdown of the reader (stopping) is not counted.
func (e *otelExporter) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	err := e.Exporter.Export(ctx, rm)
	if err != nil && e.stopping.Load() && errors.Is(ctx.Err(), context.Canceled) {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.exports++
	if err == nil {
		return nil
	}
	e.failures++
	e.lastErr = e.creds.message(err)
	if e.failures == 1 {
		fmt.Fprintf(e.log, "WARN %s: export to %s failed: %s; the test goes on, the next export carries the totals again\n",
			e.name, e.endpoint, e.lastErr)
	}
	return nil
}

// Shutdown closes the wrapped exporter; its error is not the run's.
func (e *otelExporter) Shutdown(ctx context.Context) error {
	_ = e.Exporter.Shutdown(ctx)
	return nil
}

// summarize prints, after the last export, how many exports failed.
func (e *otelExporter) summarize() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.failures > 0 {
		fmt.Fprintf(e.log, "WARN %s: %d of %d exports to %s failed, the last with: %s\n",
			e.name, e.failures, e.exports, e.endpoint, e.lastErr)
	}
}
