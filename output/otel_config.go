package output

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/options"
)

// otelConfig holds the settings of the OpenTelemetry output, read from
// k6's K6_OTEL_* variables.
type otelConfig struct {
	// exporter is "grpc" (the default) or "http" (K6_OTEL_EXPORTER_TYPE).
	exporter string
	// endpoint is host:port of the collector, or a URL with a scheme.
	// Defaults to localhost:4317 for gRPC and localhost:4318 for HTTP.
	endpoint string
	// urlPath is the HTTP exporter's path. Defaults to /v1/metrics.
	urlPath string
	// insecure sends without TLS (K6_OTEL_GRPC_EXPORTER_INSECURE or
	// K6_OTEL_HTTP_EXPORTER_INSECURE). False by default, as in k6.
	insecure bool
	// tls is the client TLS configuration built from K6_OTEL_TLS_*; nil
	// when none is set (the system roots are used).
	tls *tls.Config
	// headers are sent with every export; their values are never printed.
	headers map[string]string
	// serviceName and serviceVersion are the resource attributes
	// service.name (default k6) and service.version (default this build's
	// version).
	serviceName, serviceVersion string
	// prefix is put before every metric name (K6_OTEL_METRIC_PREFIX).
	prefix string
	// flushInterval is how often buffered samples are recorded into the
	// instruments. Must be >0. Defaults to 1s.
	flushInterval time.Duration
	// exportInterval is the time between two exports. Must be >0.
	// Defaults to 10s.
	exportInterval time.Duration
	// singleCounterForRate exports a Rate as one counter with the
	// attribute condition=zero|nonzero (k6 ≥ 1.4); false gives the legacy
	// pair name.occurred and name.total. Defaults to true.
	singleCounterForRate bool
	// maxSeries caps the attribute sets kept per metric (ours, not k6's);
	// samples beyond it are folded into one series with the attribute
	// otel.metric.overflow=true. Must be >0. Defaults to 2,000 (the SDK's).
	maxSeries int
}

// otelSettings reads the K6_OTEL_* variables; every invalid setting is
// reported at once.
func otelSettings(env map[string]string) (otelConfig, error) {
	cfg := otelConfig{
		exporter: "grpc", urlPath: "/v1/metrics", serviceName: "k6", serviceVersion: buildVersion(),
		flushInterval: time.Second, exportInterval: 10 * time.Second, singleCounterForRate: true, maxSeries: 2000,
	}
	var errs []error
	if v := env["K6_OTEL_EXPORTER_TYPE"]; v != "" {
		cfg.exporter = strings.ToLower(v)
		if cfg.exporter != "grpc" && cfg.exporter != "http" {
			errs = append(errs, fmt.Errorf("K6_OTEL_EXPORTER_TYPE %q: want grpc or http", v))
		}
	}
	kind := strings.ToUpper(cfg.exporter)
	cfg.endpoint = env["K6_OTEL_"+kind+"_EXPORTER_ENDPOINT"]
	if cfg.endpoint == "" {
		cfg.endpoint = map[string]string{"grpc": "localhost:4317", "http": "localhost:4318"}[cfg.exporter]
	}
	if v := env["K6_OTEL_HTTP_EXPORTER_URL_PATH"]; v != "" {
		cfg.urlPath = v
	}
	errs = append(errs, readBool(env, "K6_OTEL_"+kind+"_EXPORTER_INSECURE", &cfg.insecure))
	errs = append(errs, readBool(env, "K6_OTEL_SINGLE_COUNTER_FOR_RATE", &cfg.singleCounterForRate))
	errs = append(errs, readInterval(env, "K6_OTEL_FLUSH_INTERVAL", &cfg.flushInterval))
	errs = append(errs, readInterval(env, "K6_OTEL_EXPORT_INTERVAL", &cfg.exportInterval))
	var err error
	if cfg.headers, err = parseOtelHeaders(env["K6_OTEL_HEADERS"]); err != nil {
		errs = append(errs, fmt.Errorf("K6_OTEL_HEADERS: %w", err))
	}
	if v := env["K6_OTEL_SERVICE_NAME"]; v != "" {
		cfg.serviceName = v
	}
	if v := env["K6_OTEL_SERVICE_VERSION"]; v != "" {
		cfg.serviceVersion = v
	}
	cfg.prefix = env["K6_OTEL_METRIC_PREFIX"]
	if v := env["K6_OTEL_MAX_SERIES"]; v != "" {
		if n, err := strconv.Atoi(v); err != nil || n <= 0 {
			errs = append(errs, fmt.Errorf("K6_OTEL_MAX_SERIES %q: want a positive integer", v))
		} else {
			cfg.maxSeries = n
		}
	}
	if cfg.tls, err = otelTLS(env); err != nil {
		errs = append(errs, err)
	}
	return cfg, errors.Join(errs...)
}

// readBool sets *dst from env[name] when it is set.
func readBool(env map[string]string, name string, dst *bool) error {
	v := env[name]
	if v == "" {
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("%s %q: want true or false", name, v)
	}
	*dst = b
	return nil
}

// readInterval sets *dst from env[name] when it is set: a positive
// duration (a bare number is milliseconds, as in k6's environment).
func readInterval(env map[string]string, name string, dst *time.Duration) error {
	v := env[name]
	if v == "" {
		return nil
	}
	d, err := options.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("%s %q: want a positive duration", name, v)
	}
	*dst = d
	return nil
}

// parseOtelHeaders reads headers in W3C Correlation-Context form,
// "k1=v1,k2=v2"; values may be percent-encoded. Error messages name the
// key only, never a value.
func parseOtelHeaders(s string) (map[string]string, error) {
	out := map[string]string{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for i, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if k = strings.TrimSpace(k); !ok || k == "" {
			return nil, fmt.Errorf("entry %d: want key=value", i+1)
		}
		v = strings.TrimSpace(v)
		if dec, err := url.PathUnescape(v); err == nil {
			v = dec
		}
		out[k] = v
	}
	return out, nil
}

// otelTLS builds the client TLS configuration of K6_OTEL_TLS_INSECURE_SKIP_VERIFY,
// K6_OTEL_TLS_CERTIFICATE (the CA of the collector), K6_OTEL_TLS_CLIENT_CERTIFICATE
// and K6_OTEL_TLS_CLIENT_KEY (PEM files); nil when none is set.
func otelTLS(env map[string]string) (*tls.Config, error) {
	skip, ca := env["K6_OTEL_TLS_INSECURE_SKIP_VERIFY"], env["K6_OTEL_TLS_CERTIFICATE"]
	cert, key := env["K6_OTEL_TLS_CLIENT_CERTIFICATE"], env["K6_OTEL_TLS_CLIENT_KEY"]
	if skip == "" && ca == "" && cert == "" && key == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if err := readBool(env, "K6_OTEL_TLS_INSECURE_SKIP_VERIFY", &cfg.InsecureSkipVerify); err != nil {
		return nil, err
	}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("K6_OTEL_TLS_CERTIFICATE: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("K6_OTEL_TLS_CERTIFICATE %s: no PEM certificate", ca)
		}
	}
	if (cert == "") != (key == "") {
		return nil, errors.New("K6_OTEL_TLS_CLIENT_CERTIFICATE and K6_OTEL_TLS_CLIENT_KEY go together")
	}
	if cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("K6_OTEL_TLS_CLIENT_CERTIFICATE/KEY: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// buildVersion is the default service.version: the main module's version,
// else its VCS revision, else "(devel)".
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "dev-" + s.Value[:12]
		}
	}
	return "(devel)"
}
