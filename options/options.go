// Package options holds the run configuration: the k6 option names, their
// JSON form in scripts, the K6_* environment layer, the consolidation of the
// layers, the scenario configs and the execution segments.
package options

import (
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// Duration is a time.Duration that reads k6's forms: Go duration strings
// ("1m30s"), a day prefix ("1d2h"), or a bare number meaning milliseconds.
// It marshals to a Go duration string.
type Duration time.Duration

// Stage is one step of a ramping executor: reach Target within Duration.
type Stage struct {
	Duration Duration `json:"duration"`
	Target   int64    `json:"target"`
}

// Executor names.
const (
	ConstantArrivalRate = "constant-arrival-rate"
	RampingArrivalRate  = "ramping-arrival-rate"
	ConstantVUs         = "constant-vus"
	RampingVUs          = "ramping-vus"
	PerVUIterations     = "per-vu-iterations"
	SharedIterations    = "shared-iterations"
	// TraceReplay is ours: iterations start at the timestamps of a file.
	TraceReplay = "trace-replay"
	// ExternallyControlled is k6's executor whose active VUs and maxVUs
	// are changed while it runs, over the REST API.
	ExternallyControlled = "externally-controlled"
)

// Scenario is one scenario's configuration, defaults applied. Only the fields
// of its executor are meaningful.
type Scenario struct {
	Name         string            `json:"-"`
	Executor     string            `json:"executor"`
	StartTime    Duration          `json:"startTime"`
	GracefulStop Duration          `json:"gracefulStop"`
	Env          map[string]string `json:"env,omitempty"`
	Exec         string            `json:"exec"`
	Tags         map[string]string `json:"tags,omitempty"`

	VUs              int64    `json:"vus,omitempty"`
	Iterations       int64    `json:"iterations,omitempty"`
	Duration         Duration `json:"duration,omitempty"`
	MaxDuration      Duration `json:"maxDuration,omitempty"`
	Rate             int64    `json:"rate,omitempty"`
	StartRate        int64    `json:"startRate,omitempty"`
	TimeUnit         Duration `json:"timeUnit,omitempty"`
	PreAllocatedVUs  int64    `json:"preAllocatedVUs,omitempty"`
	MaxVUs           int64    `json:"maxVUs,omitempty"`
	StartVUs         int64    `json:"startVUs,omitempty"`
	Stages           []Stage  `json:"stages,omitempty"`
	GracefulRampDown Duration `json:"gracefulRampDown,omitempty"`

	// Arrival is the arrival process of the arrival-rate executors:
	// ArrivalConstant (also when empty, the default), ArrivalPoisson or
	// ArrivalGamma; see ArrivalShape.
	Arrival string `json:"arrival,omitempty"`
	// Burstiness is the gamma shape k of arrival "gamma", in
	// (0, MaxBurstiness]; 0 means unset, which is 1 (poisson).
	Burstiness float64 `json:"burstiness,omitempty"`
	// ArrivalSeed seeds the random arrival processes, with the scenario's
	// name: the same seed gives the same schedule. Defaults to 0.
	ArrivalSeed int64 `json:"arrivalSeed,omitempty"`

	// File is trace-replay's trace: a JSONL or CSV file, its path relative
	// to the script's directory.
	File string `json:"file,omitempty"`
	// Format is the trace's format, TraceJSONL or TraceCSV; empty means
	// the file's extension decides (see TraceFormat).
	Format string `json:"format,omitempty"`
	// Speed scales trace-replay's time: 2 replays twice as fast. Must be
	// more than 0. Defaults to 1.
	Speed float64 `json:"speed,omitempty"`
	// TimestampField names the trace's timestamp column, in units of
	// TimeUnit (1ms by default for trace-replay). Defaults to "timestamp".
	TimestampField string `json:"timestampField,omitempty"`
	// Browser is the scenario's options.browser.type: "chromium" gives its
	// VUs a browser for k6/browser; empty, none.
	Browser string `json:"-"`

	// TraceLength is trace-replay's length once its file was read (when
	// its last row is due); 0 until then. Not an option: inspect
	// --execution-requirements reads the trace to set it.
	TraceLength Duration `json:"-"`
}

// Options is the consolidated configuration of a run.
type Options struct {
	// Shortcuts; nil when not set in any layer.
	VUs        *int64    `json:"vus,omitempty"`
	Duration   *Duration `json:"duration,omitempty"`
	Iterations *int64    `json:"iterations,omitempty"`
	Stages     []Stage   `json:"stages,omitempty"`

	// Scenarios after consolidation, shortcuts turned into a "default"
	// scenario; ordered by name.
	Scenarios []Scenario `json:"-"`

	Thresholds map[string][]metrics.ThresholdConfig `json:"-"`

	SummaryTrendStats []string          `json:"summaryTrendStats"`
	SummaryTimeUnit   string            `json:"summaryTimeUnit,omitempty"`
	NoSummary         bool              `json:"noSummary,omitempty"`
	NoThresholds      bool              `json:"noThresholds,omitempty"`
	SummaryExport     string            `json:"summaryExport,omitempty"`
	Tags              map[string]string `json:"tags,omitempty"`
	SetupTimeout      Duration          `json:"setupTimeout"`
	TeardownTimeout   Duration          `json:"teardownTimeout"`
	InsecureSkipTLS   bool              `json:"insecureSkipTLSVerify,omitempty"`
	// ProbeTransport picks how the streaming probe reads plain-HTTP
	// streams: "reactor" (the default where there is one) or "nethttp".
	// Set by --probe-transport or USEFULLATENCY_PROBE_TRANSPORT only.
	ProbeTransport string `json:"-"`
	// ProbeCapture says whether the probe reads the arrival of each TCP
	// segment from a packet capture: "auto" (the default: when the
	// process may open one), "on" (fail without it) or "off". Set by
	// --probe-capture or USEFULLATENCY_PROBE_CAPTURE only.
	ProbeCapture string   `json:"-"`
	Quiet        bool     `json:"-"`
	Out          []string `json:"-"`

	// The k6 options below are read through the k6Options table. Their
	// zero value is unset; pointers are nil when unset.

	// NoSetup and NoTeardown skip setup() and teardown().
	NoSetup    bool `json:"noSetup,omitempty"`
	NoTeardown bool `json:"noTeardown,omitempty"`
	// MinIterationDuration is the least time an iteration takes: a VU that
	// finished earlier waits until it has passed.
	MinIterationDuration Duration `json:"minIterationDuration,omitempty"`
	// ConsoleOutput is a file console methods write to instead of the log.
	ConsoleOutput string `json:"consoleOutput,omitempty"`
	// SummaryMode is compact, full, legacy or disabled; empty is full.
	SummaryMode string `json:"summaryMode,omitempty"`

	// The options below are kept for the HTTP client (k6/http) and are not
	// used by the runner itself.
	Throw                 bool              `json:"throw,omitempty"`
	MaxRedirects          *int64            `json:"maxRedirects,omitempty"`
	Batch                 *int64            `json:"batch,omitempty"`
	BatchPerHost          *int64            `json:"batchPerHost,omitempty"`
	RPS                   *int64            `json:"rps,omitempty"`
	UserAgent             *string           `json:"userAgent,omitempty"`
	HTTPDebug             string            `json:"httpDebug,omitempty"`
	DiscardResponseBodies bool              `json:"discardResponseBodies,omitempty"`
	NoConnectionReuse     bool              `json:"noConnectionReuse,omitempty"`
	NoVUConnectionReuse   bool              `json:"noVUConnectionReuse,omitempty"`
	NoCookiesReset        bool              `json:"noCookiesReset,omitempty"`
	SystemTags            []string          `json:"systemTags,omitempty"`
	BlacklistIPs          []string          `json:"blacklistIPs,omitempty"`
	BlockHostnames        []string          `json:"blockHostnames,omitempty"`
	LocalIPs              string            `json:"localIPs,omitempty"`
	DNS                   *DNS              `json:"dns,omitempty"`
	Hosts                 map[string]string `json:"hosts,omitempty"`
	// TLSVersion, TLSCipherSuites and TLSAuth are read from scripts only,
	// as in k6.
	TLSVersion      *TLSVersions `json:"tlsVersion,omitempty"`
	TLSCipherSuites []string     `json:"tlsCipherSuites,omitempty"`
	TLSAuth         []TLSAuth    `json:"tlsAuth,omitempty"`

	// The options below are accepted for compatibility and have no effect
	// (see docs/cli.md, the flag table).
	CompatibilityMode string `json:"compatibilityMode,omitempty"`
	Linger            bool   `json:"linger,omitempty"`
	NoUsageReport     bool   `json:"noUsageReport,omitempty"`
	Paused            bool   `json:"paused,omitempty"`

	ExecutionSegment         string `json:"executionSegment,omitempty"`
	ExecutionSegmentSequence string `json:"executionSegmentSequence,omitempty"`

	// Env holds -e/--env values (and, unless disabled, the process
	// environment) exposed to scripts as __ENV.
	Env map[string]string `json:"-"`

	// Warnings lists problems that do not stop the run, such as unknown
	// top-level script options, in the order they were found. Consolidate
	// concatenates the layers' warnings and adds its own.
	Warnings []string `json:"-"`

	// derived reports that Scenarios were derived from the shortcuts (or
	// from nothing) by Consolidate, not set by a layer.
	derived bool

	// Source names the layer in error messages: "script", "environment",
	// "flags" or "defaults". Empty is reported as "options".
	Source string `json:"-"`
}
