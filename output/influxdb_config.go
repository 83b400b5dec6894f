package output

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/options"
)

// influxConfig holds the settings of the influxdb output.
type influxConfig struct {
	// url is the -o argument as given (for the banner, redacted). Defaults
	// to http://localhost:8086/k6.
	url string
	// base is url without userinfo, query and the database segment; db is
	// that last path segment.
	base, db string
	// username and password authenticate with HTTP basic auth; the
	// K6_INFLUXDB_* variables win over the URL's userinfo.
	username, password string
	// insecure skips TLS certificate verification (K6_INFLUXDB_INSECURE).
	insecure bool
	// proxy, when set, is the HTTP proxy of every request
	// (K6_INFLUXDB_HTTP_PROXY).
	proxy *url.URL
	// interval is the time between two writes. Must be >0. Defaults to 1s.
	interval time.Duration
	// concurrentWrites is how many writes may be in flight at once. Must
	// be >0. Defaults to 4.
	concurrentWrites int
	// asFields are the tags written as fields, with their types. Defaults
	// to vu:int,iter:int,url.
	asFields map[string]fieldKind
	// precision is the unit of the timestamps: ns, u, ms or s. Defaults to
	// ns.
	precision string
	// maxBuffered caps the samples waiting for a write; later ones are
	// dropped and counted. Must be >0. Defaults to 1,000,000.
	maxBuffered int
	// batchSize is the most points one write request carries: InfluxDB
	// refuses bodies over 25 MB by default.
	batchSize int
	// timeout bounds one request. Defaults to 5s.
	timeout time.Duration
	// stopGrace bounds how long Stop waits for the writes in flight and the
	// last ones, for a server that answers but slowly. Defaults to 30s.
	stopGrace time.Duration
}

// defaultInfluxURL is where k6 writes without an argument.
const defaultInfluxURL = "http://localhost:8086/k6"

// precisions maps a K6_INFLUXDB_PRECISION value to InfluxDB's precision
// parameter and the nanoseconds of its unit.
var precisions = map[string]struct {
	param   string
	divisor int64
}{
	"ns": {"ns", 1}, "n": {"ns", 1},
	"us": {"u", 1e3}, "u": {"u", 1e3}, "µs": {"u", 1e3},
	"ms": {"ms", 1e6},
	"s":  {"s", 1e9},
}

// influxSettings reads the -o argument and k6's K6_INFLUXDB_* variables.
// Every invalid setting is reported at once.
func influxSettings(p Params) (influxConfig, error) {
	cfg := influxConfig{
		url: p.Arg, interval: time.Second, concurrentWrites: 4, precision: "ns",
		maxBuffered: 1_000_000, batchSize: 10_000, timeout: 5 * time.Second, stopGrace: 30 * time.Second,
	}
	if cfg.url == "" {
		cfg.url = defaultInfluxURL
	}
	var errs []error
	if err := cfg.parseURL(); err != nil {
		errs = append(errs, err)
	}
	if v, ok := p.Env["K6_INFLUXDB_USERNAME"]; ok {
		cfg.username = v
	}
	if v, ok := p.Env["K6_INFLUXDB_PASSWORD"]; ok {
		cfg.password = v
	}
	if v := p.Env["K6_INFLUXDB_INSECURE"]; v != "" {
		var err error
		if cfg.insecure, err = strconv.ParseBool(v); err != nil {
			errs = append(errs, fmt.Errorf("K6_INFLUXDB_INSECURE %q: want true or false", v))
		}
	}
	if v := p.Env["K6_INFLUXDB_HTTP_PROXY"]; v != "" {
		u, err := url.Parse(v)
		if err != nil || u.Host == "" {
			errs = append(errs, fmt.Errorf("K6_INFLUXDB_HTTP_PROXY %q: want a URL", redact.URL(v)))
		}
		cfg.proxy = u
	}
	if v := p.Env["K6_INFLUXDB_PUSH_INTERVAL"]; v != "" {
		d, err := options.ParseDuration(v)
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("K6_INFLUXDB_PUSH_INTERVAL %q: want a positive duration", v))
		}
		cfg.interval = d
	}
	positive := func(name string, dst *int) {
		if v := p.Env[name]; v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				errs = append(errs, fmt.Errorf("%s %q: want a positive integer", name, v))
			}
			*dst = n
		}
	}
	positive("K6_INFLUXDB_CONCURRENT_WRITES", &cfg.concurrentWrites)
	positive("K6_INFLUXDB_MAX_BUFFERED", &cfg.maxBuffered)
	fields, ok := p.Env["K6_INFLUXDB_TAGS_AS_FIELDS"]
	if !ok {
		fields = "vu:int,iter:int,url"
	}
	var err error
	if cfg.asFields, err = parseTagsAsFields(fields); err != nil {
		errs = append(errs, fmt.Errorf("K6_INFLUXDB_TAGS_AS_FIELDS: %w", err))
	}
	if v := p.Env["K6_INFLUXDB_PRECISION"]; v != "" {
		if cfg.precision = precisionName(v); cfg.precision == "" {
			errs = append(errs, fmt.Errorf("K6_INFLUXDB_PRECISION %q: want ns, us, ms or s (or 1ns, 1us, 1ms, 1s)", v))
		}
	}
	return cfg, errors.Join(errs...)
}

// precisionName returns the key of precisions for a unit given by name
// (ms) or as a duration (1ms), "" for anything else.
func precisionName(v string) string {
	if _, ok := precisions[v]; ok {
		return v
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return ""
	}
	for name, p := range precisions {
		if time.Duration(p.divisor) == d {
			return name
		}
	}
	return ""
}

// parseURL splits the URL into the server's base and the database, the
// last path segment, and takes the userinfo as credentials.
func (cfg *influxConfig) parseURL() error {
	u, err := url.Parse(cfg.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("URL %q: want http(s)://[user:pass@]host:port/database", redact.URL(cfg.url))
	}
	if u.User != nil {
		cfg.username = u.User.Username()
		cfg.password, _ = u.User.Password()
	}
	path := strings.TrimSuffix(u.Path, "/")
	i := strings.LastIndexByte(path, '/')
	cfg.db = path[i+1:]
	if cfg.db == "" {
		cfg.db = "k6"
	}
	base := url.URL{Scheme: u.Scheme, Host: u.Host, Path: path[:max(i, 0)]}
	cfg.base = base.String()
	return nil
}

// parseTagsAsFields reads "name[:kind],...", kind one of string (the
// default), int, float and bool.
func parseTagsAsFields(s string) (map[string]fieldKind, error) {
	kinds := map[string]fieldKind{"": fieldString, "string": fieldString, "int": fieldInt, "float": fieldFloat, "bool": fieldBool}
	out := map[string]fieldKind{}
	for item := range strings.SplitSeq(s, ",") {
		name, kind, _ := strings.Cut(strings.TrimSpace(item), ":")
		if name == "" {
			if item = strings.TrimSpace(item); item != "" {
				return nil, fmt.Errorf("%q: want name[:type]", item)
			}
			continue
		}
		k, ok := kinds[kind]
		if !ok {
			return nil, fmt.Errorf("%q: type %q is not one of string, int, float, bool", item, kind)
		}
		out[name] = k
	}
	return out, nil
}
