package mock

import (
	"math/rand/v2"
	"time"
)

// Kind is the class of a scheduled event, as the usefulsse probe classifies
// it (see the sse package), plus KindDisconnect.
type Kind string

// The event kinds.
const (
	// KindHeartbeat is a ": ping" comment or an Anthropic ping event.
	KindHeartbeat Kind = "heartbeat"
	// KindEmpty has no visible text and no state change: the role-only
	// chunk, an empty delta, content_block_start/stop of a text block.
	KindEmpty Kind = "empty"
	// KindText adds visible text.
	KindText Kind = "text"
	// KindReasoning adds reasoning text (OpenAI reasoning_content,
	// Anthropic thinking_delta).
	KindReasoning Kind = "reasoning"
	// KindTool starts a tool call or streams its arguments.
	KindTool Kind = "tool"
	// KindState changes structured state: a business_state delta, the
	// business first event carrying queue_ms, or token usage.
	KindState Kind = "state"
	// KindDone is the terminal event.
	KindDone Kind = "done"
	// KindInvalid is an event whose JSON is malformed (malformed_json).
	KindInvalid Kind = "invalid"
	// KindDisconnect is not an event: the server closes the connection
	// here (disconnect fault).
	KindDisconnect Kind = "disconnect"
)

// Event is one scheduled event of a stream.
type Event struct {
	// At is when the event is sent, from the moment the request left its
	// tenant queue (add the queue time to compare with server_ms).
	At time.Duration
	// Kind is the event's class.
	Kind Kind
	// Type is the wire form. Business: start, state, delta, done. OpenAI:
	// role, content, reasoning, tool_call, tool_args, finish, usage, [DONE].
	// Completions: start, text, finish, usage, [DONE]. Anthropic: the event
	// name (message_start, content_block_delta, …).
	// Heartbeats: comment (": ping") or ping (Anthropic). Disconnects:
	// disconnect.
	Type string
	// Block is the Anthropic content block type of content_block_start
	// (text, thinking, tool_use) or delta type of content_block_delta
	// (text_delta, thinking_delta, input_json_delta, signature_delta).
	Block string
	// Index is the Anthropic content block index, or the OpenAI tool call
	// index.
	Index int
	// ID is a tool call's identifier without its dialect prefix ("call_",
	// "toolu_"), and Name its tool name.
	ID, Name string
	// Text is the visible text, reasoning text or tool-argument fragment.
	Text string
	// State is the business_state delta (a JSON object) of a business
	// state event.
	State string
	// quiet forbids heartbeats in the gap before the event (stall fault).
	quiet bool
}

// Usage is the token accounting a stream reports.
type Usage struct {
	// InputTokens is the prompt size: a per-bucket system prompt plus a
	// quarter of the question's bytes.
	InputTokens int
	// OutputTokens counts every generated token: text, reasoning and
	// tool-argument fragments.
	OutputTokens int
	// ReasoningTokens counts the reasoning tokens among OutputTokens.
	ReasoningTokens int
}

// Schedule is everything the server will send for one request, with the
// intended send times: what a round-trip test compares a client's
// measurements against.
type Schedule struct {
	Dialect Dialect
	Bucket  string
	Tenant  string
	// Seed is the mock seed: the timings, faults and ids were drawn from
	// it, and the content too unless ContentSeed differs.
	Seed int64
	// ContentSeed is the seed the content was drawn from: the OpenAI or
	// Anthropic "seed" of the request, else Seed.
	ContentSeed int64
	// MaxTokens is the request's output token limit (OpenAI max_tokens or
	// max_completion_tokens, Anthropic max_tokens), 0 for none.
	MaxTokens int
	// Truncated reports that the stream stopped at MaxTokens: OpenAI
	// finish_reason "length", Anthropic stop_reason "max_tokens".
	Truncated bool
	// Faults are the effective faults (the request's and Config.Faults).
	Faults []string
	// Status is the response status: 200, or the http_error fault's status
	// (then Events is empty).
	Status int
	// Hold reports Config.HoldHeadersUntilDequeue: headers wait for the
	// tenant and model slots and carry Server-Timing queue;dur.
	Hold bool
	// Buffered reports the buffered fault: events are scheduled as usual
	// but reach the wire in Config.BufferBytes batches.
	Buffered bool
	// Whole reports an OpenAI or legacy-completions request whose "stream"
	// is absent or false (an Anthropic one too, under the profiles that
	// answer those whole): Events are still the stream it would get, but
	// the server waits until the last of them is due and answers with one
	// chat.completion, text_completion or message object holding the whole
	// answer; a disconnect closes the connection at its time instead.
	Whole bool
	// Events are the scheduled events in send order, heartbeats included.
	// Heartbeats sent while the request waits in its tenant queue are not
	// part of the schedule.
	Events []Event
	// Marks are the offsets (from dequeue) of the milestones the stream
	// reaches: first_event, first_text, decision (first decision state,
	// premature or not), verified (the refund-rule tool verified),
	// tool_timeout, handoff, useful (decision, reason and next_step all
	// known), complete (terminal event). A milestone never reached is absent.
	Marks map[string]time.Duration
	// Usage is the token accounting of the stream.
	Usage Usage
	// ID is the message id without its prefix ("chatcmpl-", "msg_").
	ID string
	// Model is the model name the stream reports.
	Model string
	// IncludeUsage reports OpenAI stream_options.include_usage.
	IncludeUsage bool
	// Created is the "created" member of the OpenAI dialects' objects (chat
	// completion bodies, text completion chunks and bodies): the Unix time
	// in seconds of the request's arrival; 0 in a schedule from Plan.
	Created int64
	// Profile is the server profile the events are rendered for (see
	// Config.Profile).
	Profile string
	// profile is the profile itself.
	profile *profile
}

// The PRNG streams of a request, each seeded with (seed, stream).
const (
	streamContent = 0xc0ffee
	streamTiming  = 0x7131ce
	streamFault   = 0xfa017
	streamIDs     = 0x1d5
)

// newRand returns the PRNG of one stream of a seed.
func newRand(seed int64, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), stream))
}

// promptTokens is the system prompt size of each bucket, in tokens.
var promptTokens = map[string]int{
	BucketQA: 350, BucketRetrieval: 1450, BucketSingleTool: 620, BucketMultiTool: 780, BucketTimeoutRecovery: 620,
}

// Plan returns the schedule the server follows for a request of dialect d
// with this body under cfg: every event it would send and when, the
// milestones, the usage. It lets a test compare what a client measured
// with what the mock scheduled, without a server. A body without a mock
// seed (mock_seed, the X-Usefullatency-Seed header, or seed in the business
// dialect) uses cfg.Seed, where the server instead derives a fresh seed per
// request and reports it in the X-Usefullatency-Seed response header. An
// invalid configuration or body returns the error the server would answer
// with (*RequestError for a 400).
func Plan(d Dialect, body []byte, cfg Config) (Schedule, error) {
	if err := cfg.Validate(); err != nil {
		return Schedule{}, err
	}
	global, _ := parseFaults(cfg.Faults, 0)
	req, err := parseRequest(d, body, "", global)
	if err != nil {
		return Schedule{}, err
	}
	if !req.hasSeed {
		req.seed = cfg.Seed
	}
	return *plan(d, &req, &cfg), nil
}

// plan builds the schedule of a parsed request whose seed is decided,
// under a valid cfg.
func plan(d Dialect, req *request, cfg *Config) *Schedule {
	p, _ := lookupProfile(cfg.Profile)
	s := &Schedule{
		Dialect: d, Bucket: req.bucket, Tenant: req.tenant, Seed: req.seed, ContentSeed: req.seed, MaxTokens: req.maxTokens,
		Faults: req.faults.names(), Status: 200, Hold: cfg.HoldHeadersUntilDequeue,
		Buffered: req.faults.has(FaultBuffered), Model: req.model, IncludeUsage: req.includeUsage,
		Whole: req.whole && (d.openAILike() || d == Anthropic && p.anthropicWhole), Profile: p.name, profile: p,
	}
	if s.Model == "" {
		s.Model = cfg.Model
	}
	if s.Model == "" {
		s.Model = DefaultConfig().Model
	}
	if req.hasContentSeed {
		s.ContentSeed = req.contentSeed
	}
	content, fault := newRand(s.ContentSeed, streamContent), newRand(req.seed, streamFault)
	if req.faults.has(FaultHTTPError) {
		s.Status = req.httpStatus
		if s.Status == 0 {
			s.Status = [...]int{429, 503}[fault.IntN(2)]
		}
		return s
	}
	c := chain{
		cfg: cfg, b: cfg.Buckets.get(req.bucket), faults: req.faults,
		timing: newRand(req.seed, streamTiming), fault: fault,
		txt: newTexts(content, req.bucket), marks: make(map[string]time.Duration, 8),
		reasoning: req.reasoning, steps: make([]step, 0, 96), maxTokens: req.maxTokens,
	}
	ids := newRand(req.seed, streamIDs)
	s.ID = hexID(ids, 24)
	c.run(req.bucket, ids)
	s.Marks, s.Truncated = c.marks, c.truncated
	s.Usage = Usage{
		InputTokens:     promptTokens[req.bucket] + req.questionLen/4,
		OutputTokens:    c.use.output + c.use.reasoning,
		ReasoningTokens: c.use.reasoning,
	}
	steps := c.steps
	if d != Business && p.openAtFirstToken {
		var at time.Duration
		var moved bool
		if steps, at, moved = openAtFirstToken(steps); moved {
			s.Marks["first_event"] = at
		}
	}
	switch d {
	case OpenAI:
		s.Events = openaiEvents(steps, s)
		if at, ok := firstTextAt(s.Events); ok && p.chunk.reasoning == "content" {
			s.Marks["first_text"] = at // reasoning streams as visible text
		}
	case Anthropic:
		s.Events = anthropicEvents(steps, s)
	case Completions:
		s.Events = completionsEvents(steps, s)
	default:
		s.Events = businessEvents(steps, s)
	}
	if req.faults.has(FaultHeartbeatFlood) {
		s.Events = floodHeartbeats(s.Events, msDuration(cfg.FloodHeartbeatMS), heartbeatEvent(d))
	} else if interval := p.keepAlive(cfg); interval > 0 {
		s.Events = fillHeartbeats(s.Events, interval, heartbeatEvent(d))
	}
	return s
}

// firstTextAt returns the time of the first visible text among evs.
func firstTextAt(evs []Event) (time.Duration, bool) {
	for i := range evs {
		if evs[i].Kind == KindText {
			return evs[i].At, true
		}
	}
	return 0, false
}

// heartbeatEvent returns the heartbeat of dialect d.
func heartbeatEvent(d Dialect) Event {
	if d == Anthropic {
		return Event{Kind: KindHeartbeat, Type: "ping"}
	}
	return Event{Kind: KindHeartbeat, Type: "comment"}
}

// fillHeartbeats returns evs with a heartbeat wherever the stream would
// otherwise be silent for interval: at last+interval, last+2·interval, …
// before each event, where last is the previous event (heartbeats
// included). Gaps before quiet events (a stall) are left silent.
func fillHeartbeats(evs []Event, interval time.Duration, hb Event) []Event {
	extra := 0
	for i := 1; i < len(evs); i++ {
		if !evs[i].quiet && evs[i].At-evs[i-1].At > interval {
			extra += int((evs[i].At - evs[i-1].At - 1) / interval)
		}
	}
	if extra == 0 {
		return evs
	}
	out := make([]Event, 0, len(evs)+extra)
	for i := range evs {
		if i > 0 && !evs[i].quiet {
			for at := evs[i-1].At + interval; at < evs[i].At; at += interval {
				hb.At = at
				out = append(out, hb)
			}
		}
		out = append(out, evs[i])
	}
	return out
}

// floodHeartbeats returns evs with a heartbeat at every multiple of interval
// before the last event, whatever else is sent (a gateway's keep-alive
// ticker), except in the gaps before quiet events. At equal times the
// event goes first.
func floodHeartbeats(evs []Event, interval time.Duration, hb Event) []Event {
	if len(evs) == 0 {
		return evs
	}
	out := make([]Event, 0, len(evs)+int(evs[len(evs)-1].At/interval))
	at := interval
	for i := range evs {
		for ; at < evs[i].At; at += interval {
			if !evs[i].quiet {
				hb.At = at
				out = append(out, hb)
			}
		}
		out = append(out, evs[i])
	}
	return out
}
