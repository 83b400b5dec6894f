package mock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// Config is the whole behaviour of the simulated assistant: the latency of
// every stage per bucket, the tenant worker slots, the shared model slots,
// token pacing, heartbeats, queue reporting, global faults, the seed and the
// server profile. DefaultConfig returns the documented realistic defaults;
// LoadConfig overlays a JSON file on them.
// All times are float milliseconds (JSON fields ending in _ms).
//
// Default stage latencies, median / p95 in ms (lognormal, see Dist); a dash
// means the bucket does not run the stage:
//
//	stage          qa        retrieval  single_tool  multi_tool  timeout_recovery
//	routing        30/80     30/80      35/90        40/100      35/90
//	retrieval      -         250/700    -            -           -
//	order_lookup   -         -          80/220       80/220      80/220
//	permission     -         -          40/120       40/120      40/120
//	first_token    400/800   550/1100   250/500      250/500     250/500
//	tool           -         -          850/1400     700/1300    times out at 2000
//	safety         40/120    40/120     40/120       40/120      40/120
//
// first_token is paid by every model turn, before the first reasoning, tool
// call or answer token of the turn: qa and retrieval have one turn,
// single_tool two (tool call, answer), multi_tool two or three (two tools
// called in parallel, sometimes a third, then the answer), timeout_recovery
// one (its fallback message is canned). Tokens (text, reasoning, tool
// argument fragments of 8 bytes) follow each other every inter_token
// (40/70 ms, about 25 tokens/s). The refund-rule tool of timeout_recovery
// times out after tool_timeout_ms (2000); the fallback message with the
// human hand-off starts fallback (150/400 ms, at most 800 ms) later, or
// slow_fallback (1600/2400 ms, at least 1100 ms) later under that fault.
//
// With these defaults and no queueing, the p95 of the time from dequeue to
// the useful answer (decision, reason and next step all known) is about
// 1.8 s for qa, 2.8 s for retrieval, 3.4 s for single_tool and 5.5 s for
// multi_tool; the p95 from tool timeout to hand-off is about 0.4 s (2.4 s
// with slow_fallback). TestDefaultsMeetExampleGates keeps these numbers.
type Config struct {
	// Buckets holds the stage latencies of each request bucket.
	Buckets Buckets `json:"buckets"`
	// InterToken is the gap between two generated tokens (text, reasoning
	// or tool-call argument fragments). Defaults to 40/70 ms (~25 tokens/s).
	InterToken Dist `json:"inter_token"`
	// TenantSlots is the number of requests one tenant may execute at once;
	// further requests wait in the tenant's FIFO queue. Must be > 0. Defaults
	// to 64: at a mean request time of 3 s a tenant sustains about 21
	// requests/s (Little's law) before its queue grows.
	TenantSlots int `json:"tenant_slots"`
	// Tenants overrides TenantSlots for the named tenants.
	Tenants map[string]int `json:"tenants,omitempty"`
	// ModelSlots is the assistant's shared capacity: the number of requests
	// (of all tenants) its model serves at once. A request that got its
	// tenant slot waits in one FIFO queue for a model slot and holds it until
	// its stream ends, so the assistant sustains about
	//
	//	capacity ≈ ModelSlots ÷ mean service time per request
	//
	// requests/s (Little's law; the service time runs from dequeue to the
	// terminal event, about 3.05 s for the mix of examples/aftersales.js)
	// before its queue time grows without bound. 0 means unlimited (only
	// tenant slots queue); must be >= 0. Defaults to 100: about 33
	// requests/s for that mix, 2.7 times the demo's 12 requests/s.
	ModelSlots int `json:"model_slots"`
	// HeartbeatMS is the longest silence before the server sends a heartbeat
	// (a ": ping" comment; an Anthropic ping event) while it queues, runs
	// tools or waits for the model. Must be > 0. Defaults to 500 ms.
	HeartbeatMS float64 `json:"heartbeat_ms"`
	// HoldHeadersUntilDequeue makes the server send the response headers only
	// once the request got its tenant worker slot and its model slot (its
	// dequeue), with the queue time (arrival to dequeue) in
	// "Server-Timing: queue;dur=<ms>". When false (the default) headers go out
	// on arrival and the queue time is the queue_ms field of the first event
	// (in business_state for the business dialect, top level otherwise).
	HoldHeadersUntilDequeue bool `json:"hold_headers_until_dequeue"`
	// ToolTimeoutMS is when the refund-rule tool of timeout_recovery gives
	// up. Must be > 0. Defaults to 2000 ms.
	ToolTimeoutMS float64 `json:"tool_timeout_ms"`
	// Fallback is the delay from a tool timeout to the fallback message with
	// the human hand-off. Defaults to 150/400 ms, at most 800 ms.
	Fallback Dist `json:"fallback"`
	// SlowFallback replaces Fallback under the slow_fallback fault. Defaults
	// to 1600/2400 ms, at least 1100 ms.
	SlowFallback Dist `json:"slow_fallback"`
	// StallMS is how long a stream goes silent (no heartbeat either) under
	// the stall fault. Defaults to 45000 ms, above common 30 s idle timeouts.
	StallMS float64 `json:"stall_ms"`
	// FloodHeartbeatMS is the heartbeat interval under the heartbeat_flood
	// fault. Must be > 0. Defaults to 10 ms (100 heartbeats/s).
	FloodHeartbeatMS float64 `json:"flood_heartbeat_ms"`
	// RenderDelayMS is how long the chat page holds each update of the
	// screen back under the render_delay fault. Must be >= 0. Defaults to
	// 800 ms.
	RenderDelayMS float64 `json:"render_delay_ms"`
	// BufferBytes is the batch size of the buffered fault: output is held
	// and written in batches of exactly this many bytes (the rest at the
	// end). Must be > 0. Defaults to 16384 (16 KiB).
	BufferBytes int `json:"buffer_bytes"`
	// Faults are fault names applied to every request, in addition to the
	// request's own (see Faults for the names).
	Faults []string `json:"faults,omitempty"`
	// Seed seeds requests that carry no mock seed of their own: request n (in
	// arrival order) uses a seed derived from Seed and n, reported in the
	// X-Usefullatency-Seed response header. Defaults to 0.
	Seed int64 `json:"seed"`
	// Model is the model name reported in OpenAI and Anthropic streams when
	// the request names none. Defaults to "usefullatency-mock-1".
	Model string `json:"model"`
	// Profile names the server whose wire behaviour the OpenAI, legacy
	// completions and Anthropic routes imitate: aftersales (the mock's own,
	// the default; empty means it too), openai, vllm, llamacpp, tgi or
	// anthropic (see ProfileNames). It decides when a stream's opening
	// event leaves (at once, or with the first token), the chunks' members,
	// heartbeats, error bodies and headers, never the chain's latencies.
	Profile string `json:"profile"`
	// IdleTimeoutMS is how long the server keeps an idle keep-alive
	// connection open. Must be > 0. Defaults to 60000 ms.
	IdleTimeoutMS float64 `json:"idle_timeout_ms"`
	// ReadHeaderTimeoutMS is how long a connection may take to send a
	// request's headers. Must be > 0. Defaults to 10000 ms.
	ReadHeaderTimeoutMS float64 `json:"read_header_timeout_ms"`
	// Version is the version GET /v1/version reports; the program sets it,
	// a configuration file cannot. Empty means the main module's version
	// from the build information.
	Version string `json:"-"`
}

// Buckets holds one Bucket per request bucket. A JSON file may set any
// subset; fields it leaves out keep their defaults.
type Buckets struct {
	QA              Bucket `json:"qa"`
	Retrieval       Bucket `json:"retrieval"`
	SingleTool      Bucket `json:"single_tool"`
	MultiTool       Bucket `json:"multi_tool"`
	TimeoutRecovery Bucket `json:"timeout_recovery"`
}

// Bucket holds the stage latencies of one bucket. A bucket runs a fixed
// chain of stages (see the Config table); the fields of stages it does not
// run are ignored.
type Bucket struct {
	// Routing is intent routing, run by every bucket.
	Routing Dist `json:"routing"`
	// Retrieval is the knowledge-base search of the retrieval bucket.
	Retrieval Dist `json:"retrieval"`
	// OrderLookup is the order-service call of the tool buckets.
	OrderLookup Dist `json:"order_lookup"`
	// Permission is the permission check of the tool buckets.
	Permission Dist `json:"permission"`
	// FirstToken is the model's time to its first token, paid by every
	// model turn.
	FirstToken Dist `json:"first_token"`
	// Tool is the latency of each tool call (refund_rules, shipping_status,
	// warehouse_stock). timeout_recovery ignores it: its tool times out
	// after Config.ToolTimeoutMS.
	Tool Dist `json:"tool"`
	// Safety is the output safety check before the stream completes.
	Safety Dist `json:"safety"`
}

// The bucket names a request may give.
const (
	BucketQA              = "qa"
	BucketRetrieval       = "retrieval"
	BucketSingleTool      = "single_tool"
	BucketMultiTool       = "multi_tool"
	BucketTimeoutRecovery = "timeout_recovery"
)

// BucketNames lists the buckets in the order of the Config table.
var BucketNames = []string{BucketQA, BucketRetrieval, BucketSingleTool, BucketMultiTool, BucketTimeoutRecovery}

// get returns the named bucket, or nil for an unknown name.
func (b *Buckets) get(name string) *Bucket {
	switch name {
	case BucketQA:
		return &b.QA
	case BucketRetrieval:
		return &b.Retrieval
	case BucketSingleTool:
		return &b.SingleTool
	case BucketMultiTool:
		return &b.MultiTool
	case BucketTimeoutRecovery:
		return &b.TimeoutRecovery
	}
	return nil
}

// DefaultConfig returns the documented defaults (see Config).
func DefaultConfig() Config {
	tools := Bucket{
		Routing:     ms(35, 90),
		OrderLookup: ms(80, 220),
		Permission:  ms(40, 120),
		FirstToken:  ms(250, 500),
		Tool:        ms(850, 1400),
		Safety:      ms(40, 120),
	}
	multi := tools
	multi.Routing, multi.Tool = ms(40, 100), ms(700, 1300)
	timeout := tools
	timeout.Tool = Dist{}
	return Config{
		Buckets: Buckets{
			QA:              Bucket{Routing: ms(30, 80), FirstToken: ms(400, 800), Safety: ms(40, 120)},
			Retrieval:       Bucket{Routing: ms(30, 80), Retrieval: ms(250, 700), FirstToken: ms(550, 1100), Safety: ms(40, 120)},
			SingleTool:      tools,
			MultiTool:       multi,
			TimeoutRecovery: timeout,
		},
		InterToken:          ms(40, 70),
		TenantSlots:         64,
		ModelSlots:          100,
		HeartbeatMS:         500,
		ToolTimeoutMS:       2000,
		Fallback:            Dist{MedianMS: 150, P95MS: 400, MaxMS: 800},
		SlowFallback:        Dist{MedianMS: 1600, P95MS: 2400, MinMS: 1100},
		StallMS:             45000,
		FloodHeartbeatMS:    10,
		BufferBytes:         16 << 10,
		RenderDelayMS:       800,
		Model:               "usefullatency-mock-1",
		Profile:             ProfileAftersales,
		IdleTimeoutMS:       60000,
		ReadHeaderTimeoutMS: 10000,
	}
}

// LoadConfig reads the JSON file at path over DefaultConfig: fields the file
// sets replace the defaults, the others stay. An unknown field is an error
// naming it; the result is validated (see Validate).
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("mock: config: %w", err)
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		return Config{}, fmt.Errorf("mock: config %s: %w", path, unwrapPrefix(err))
	}
	return cfg, nil
}

// ParseConfig is LoadConfig on the JSON text data.
func ParseConfig(data []byte) (Config, error) {
	cfg := DefaultConfig()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return Config{}, fmt.Errorf("mock: config: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Config{}, errors.New("mock: config: trailing data after the JSON object")
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// unwrapPrefix drops the "mock: config: " prefix of an error of this file so
// LoadConfig can put the path in it.
func unwrapPrefix(err error) error {
	const p = "mock: config: "
	if s := err.Error(); len(s) > len(p) && s[:len(p)] == p {
		return errors.New(s[len(p):])
	}
	return err
}

// Validate returns every problem of c at once (joined), or nil.
func (c *Config) Validate() error {
	var errs []error
	for _, name := range BucketNames {
		b := c.Buckets.get(name)
		for _, st := range [...]struct {
			n string
			d Dist
		}{{"routing", b.Routing}, {"retrieval", b.Retrieval}, {"order_lookup", b.OrderLookup},
			{"permission", b.Permission}, {"first_token", b.FirstToken}, {"tool", b.Tool}, {"safety", b.Safety}} {
			errs = append(errs, st.d.validate("buckets."+name+"."+st.n)...)
		}
	}
	errs = append(errs, c.InterToken.validate("inter_token")...)
	errs = append(errs, c.Fallback.validate("fallback")...)
	errs = append(errs, c.SlowFallback.validate("slow_fallback")...)
	positive := func(name string, v float64) {
		if !(v > 0) || math.IsInf(v, 0) {
			errs = append(errs, fmt.Errorf("%s: %w", name, errNotPositive))
		}
	}
	positive("tenant_slots", float64(c.TenantSlots))
	for t, n := range c.Tenants {
		positive("tenants."+t, float64(n))
	}
	if c.ModelSlots < 0 {
		errs = append(errs, errors.New("model_slots: must be >= 0 (0 for unlimited)"))
	}
	positive("heartbeat_ms", c.HeartbeatMS)
	positive("tool_timeout_ms", c.ToolTimeoutMS)
	positive("flood_heartbeat_ms", c.FloodHeartbeatMS)
	positive("buffer_bytes", float64(c.BufferBytes))
	positive("idle_timeout_ms", c.IdleTimeoutMS)
	positive("read_header_timeout_ms", c.ReadHeaderTimeoutMS)
	if !(c.StallMS >= 0) || math.IsInf(c.StallMS, 0) {
		errs = append(errs, errors.New("stall_ms: must be >= 0"))
	}
	if !(c.RenderDelayMS >= 0) || math.IsInf(c.RenderDelayMS, 0) {
		errs = append(errs, fmt.Errorf("render_delay_ms: must be >= 0, got %v", c.RenderDelayMS))
	}
	if _, ok := lookupProfile(c.Profile); !ok {
		errs = append(errs, fmt.Errorf("profile: unknown profile %q (known: %s)", c.Profile, strings.Join(ProfileNames, ", ")))
	}
	if _, err := parseFaults(c.Faults, 0); err != nil {
		errs = append(errs, fmt.Errorf("faults: %w", err))
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("mock: config: %w", errors.Join(errs...))
}
