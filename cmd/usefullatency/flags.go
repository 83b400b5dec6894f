package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/usefullatency/usefullatency/js"
	k6secrets "github.com/usefullatency/usefullatency/js/modules/secrets"
	"github.com/usefullatency/usefullatency/options"
)

// runFlags are the flags of `run`, named as k6 names them.
type runFlags struct {
	fs              *pflag.FlagSet
	vus             int64
	duration        string
	iterations      int64
	stages          []string
	env             []string
	tags            []string
	out             []string
	summaryExport   string
	trendStats      string
	noSummary       bool
	noThresholds    bool
	quiet           bool
	segment         string
	sequence        string
	insecure        bool
	probeTransport  string
	probeCapture    string
	systemEnv       bool
	noColor         bool
	summaryTimeUnit string
	mock            bool
	mockFlags       mockFlags
	report          string
	verbose         bool
	logOutput       string
	logFormat       string
	address         string
	apiToken        string
	profiling       bool
	noVULimit       bool
	config          string
	offline         bool
	noRemoteCache   bool
	maxFileSize     fileSize
	secretSources   []string
	// secrets are the sources of --secret-source, opened by openSecrets.
	secrets *k6secrets.Manager
}

// configLayer reads the options of the k6 config file: --config, else
// K6_CONFIG, else k6's default file when it exists; no file is no options.
func (f *runFlags) configLayer() (options.Options, error) {
	path := f.config
	if path == "" {
		path = os.Getenv("K6_CONFIG")
	}
	if path == "" {
		path = options.DefaultConfigFile()
		if _, err := os.Stat(path); path == "" || err != nil {
			return options.Options{}, nil
		}
	}
	return options.FromConfigFile(path)
}

// jsConfig is how the script's remote modules are fetched: cached in
// js.DefaultCacheDir unless --no-remote-cache, from the cache only with
// --offline; local files read up to --max-file-size; k6/secrets reads the
// sources of --secret-source.
func (f *runFlags) jsConfig() js.Config {
	cfg := js.Config{CacheDir: js.DefaultCacheDir(), Offline: f.offline, MaxFileSize: f.maxFileSize.n}
	if f.secrets != nil {
		cfg.Secrets = f.secrets
	}
	if f.noRemoteCache {
		cfg.CacheDir = ""
	}
	return cfg
}

func newRunFlags(stderr io.Writer) *runFlags {
	f := &runFlags{fs: pflag.NewFlagSet("run", pflag.ContinueOnError)}
	fs := f.fs
	fs.SetOutput(stderr)
	setUsage(fs, "") // pflag's, named after run, inspect or archive
	fs.Int64VarP(&f.vus, "vus", "u", 1, "number of virtual users")
	fs.StringVarP(&f.duration, "duration", "d", "", "test duration, e.g. 30s, 1m30s")
	fs.Int64VarP(&f.iterations, "iterations", "i", 0, "total iterations shared by the VUs")
	fs.StringArrayVarP(&f.stages, "stage", "s", nil, "ramping stage DURATION:TARGET (repeatable)")
	fs.StringArrayVarP(&f.env, "env", "e", nil, "script environment variable KEY=VALUE (repeatable)")
	fs.StringArrayVar(&f.tags, "tag", nil, "tag added to every sample, NAME=VALUE (repeatable)")
	fs.StringArrayVarP(&f.out, "out", "o", nil, "output TYPE[=ARG] (repeatable)")
	fs.StringVar(&f.summaryExport, "summary-export", "", "write the end-of-test summary as JSON to FILE")
	fs.StringVar(&f.trendStats, "summary-trend-stats", "", "trend stats in the summary, e.g. avg,p(95),p(99.9)")
	fs.StringVar(&f.summaryTimeUnit, "summary-time-unit", "", "fixed time unit of the summary: s, ms or us")
	fs.BoolVar(&f.noSummary, "no-summary", false, "do not print the end-of-test summary")
	fs.BoolVar(&f.noThresholds, "no-thresholds", false, "do not evaluate thresholds")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no banner and no progress")
	fs.StringVarP(&f.config, "config", "c", "", "JSON config file of options, under the script's (default: loadimpact/k6/config.json in the user config directory, when it exists; also K6_CONFIG)")
	fs.BoolVar(&f.offline, "offline", false, "fetch no remote module: use the module cache only, and fail at once on one not cached")
	fs.BoolVar(&f.noRemoteCache, "no-remote-cache", false, "keep no copy of remote modules in the module cache, and read none from it")
	fs.Var(&f.maxFileSize, "max-file-size", "largest file the test reads: script, imports, open(), k6/experimental/fs (default 1GiB)")
	fs.StringArrayVar(&f.secretSources, "secret-source", nil,
		"a secret source for k6/secrets: mock=NAME=VALUE,…, file=PATH or url=urlTemplate=URL; name=NAME names it, default makes it the default one (repeatable; also K6_SECRET_SOURCE)")
	fs.StringVar(&f.segment, "execution-segment", "", "this instance's share of the test, e.g. 0:1/3")
	fs.StringVar(&f.sequence, "execution-segment-sequence", "", "all instances' segments, e.g. 0,1/3,2/3,1")
	fs.BoolVar(&f.insecure, "insecure-skip-tls-verify", false, "skip TLS certificate verification")
	fs.StringVar(&f.probeTransport, "probe-transport", "", "how the streaming probe reads plain-HTTP streams: reactor (default on Linux) or nethttp (env USEFULLATENCY_PROBE_TRANSPORT)")
	fs.StringVar(&f.probeCapture, "probe-capture", "", "give each event the arrival of its own TCP segment from a packet capture: auto (default: when permitted, CAP_NET_RAW), on or off (env USEFULLATENCY_PROBE_CAPTURE)")
	fs.BoolVar(&f.systemEnv, "include-system-env-vars", true, "expose the process environment in __ENV")
	fs.BoolVar(&f.noColor, "no-color", false, "no colours in the output")
	fs.StringVar(&f.report, "report", "", "write the HTML report to FILE (same as -o html=FILE)")
	fs.StringVarP(&f.address, "address", "a", "", "serve k6's REST API on host:port, e.g. 0.0.0.0:6565 (off when empty; also K6_ADDRESS)")
	fs.BoolVar(&f.profiling, "profiling-enabled", false, "serve Go's pprof profiles on the REST API under /debug/pprof/ (also K6_PROFILING_ENABLED)")
	fs.StringVar(&f.apiToken, "api-token", "", "require Authorization: Bearer TOKEN on every REST API request but GET /ping (also K6_API_TOKEN, which keeps it out of the process list)")
	fs.BoolVar(&f.noVULimit, "no-vu-limit", false, "allow VU counts above the ceiling (1,000,000 per instance, or what this machine's memory holds at 144 KiB per VU)")
	fs.BoolVar(&f.mock, "mock", false, "start the simulated assistant in-process and set __ENV.SUT_URL (and BASE_URL, LLM_URL, OPENAI_API_BASE, OPENAI_BASE_URL, HOST)")
	f.mockFlags.add(fs, "mock-")
	f.addK6Flags(fs)
	return f
}

// layer returns the options the flags set; unset flags leave fields unset.
func (f *runFlags) layer() (options.Options, error) {
	o := options.Options{Source: "flags"}
	fs := f.fs
	if fs.Changed("vus") {
		o.VUs = &f.vus
	}
	if fs.Changed("duration") {
		d, err := options.ParseFlagDuration(f.duration)
		if err != nil {
			return o, fmt.Errorf("--duration: %v", err)
		}
		o.Duration = &d
	}
	if fs.Changed("iterations") {
		o.Iterations = &f.iterations
	}
	if len(f.stages) > 0 {
		// One call, so a stage without a target holds the previous one's.
		st, err := options.ParseStages(strings.Join(f.stages, ","))
		if err != nil {
			return o, fmt.Errorf("--stage: %v", err)
		}
		o.Stages = st
	}
	tags, err := keyValues("--tag", f.tags)
	if err != nil {
		return o, err
	}
	o.Tags = tags
	if f.trendStats != "" {
		o.SummaryTrendStats = strings.Split(f.trendStats, ",")
	}
	o.SummaryTimeUnit, o.SummaryExport = f.summaryTimeUnit, f.summaryExport
	o.NoSummary, o.NoThresholds, o.Quiet, o.InsecureSkipTLS = f.noSummary, f.noThresholds, f.quiet, f.insecure
	o.ExecutionSegment, o.ExecutionSegmentSequence = f.segment, f.sequence
	o.ProbeTransport = f.probeTransport
	o.ProbeCapture = f.probeCapture
	o.Out = f.out
	if f.report != "" {
		o.Out = append(o.Out, "html="+f.report)
	}
	o.Warnings = f.ignoredWarnings()
	return o, f.k6Layer(&o)
}

// openSecrets opens the secret sources of --secret-source, else the one
// K6_SECRET_SOURCE gives (its whole value is one source, as in k6).
func (f *runFlags) openSecrets() error {
	specs, flag := f.secretSources, "--secret-source"
	if v, ok := os.LookupEnv("K6_SECRET_SOURCE"); ok && !f.fs.Changed("secret-source") {
		specs, flag = []string{v}, "K6_SECRET_SOURCE"
	}
	m, err := k6secrets.Open(specs, options.EnvMap(os.Environ()))
	if err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	f.secrets = m
	return nil
}

// redacted returns w masking, as ***SECRET_REDACTED***, every value
// k6/secrets has handed to the script; w itself without a secret source.
func (f *runFlags) redacted(w io.Writer) io.Writer { return f.secrets.Redact(w) }

// restAddress returns where the REST API listens: --address, else
// K6_ADDRESS; empty means no REST API, as in k6 v2.
func (f *runFlags) restAddress() string {
	if f.fs.Changed("address") {
		return f.address
	}
	return os.Getenv("K6_ADDRESS")
}

// restToken returns the token the REST API requires: --api-token, else
// K6_API_TOKEN; empty means none.
func (f *runFlags) restToken() string {
	if f.fs.Changed("api-token") {
		return f.apiToken
	}
	return os.Getenv("K6_API_TOKEN")
}

// profilingEnabled reports whether the REST API serves pprof profiles:
// --profiling-enabled, else K6_PROFILING_ENABLED.
func (f *runFlags) profilingEnabled() bool {
	if f.fs.Changed("profiling-enabled") {
		return f.profiling
	}
	on, _ := strconv.ParseBool(os.Getenv("K6_PROFILING_ENABLED"))
	return on
}

// keyValues parses repeated NAME=VALUE flags.
func keyValues(flag string, list []string) (map[string]string, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(list))
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%s %q: want NAME=VALUE", flag, kv)
		}
		out[k] = v
	}
	return out, nil
}
