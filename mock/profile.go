package mock

import (
	"net/http"
	"strings"
	"time"
)

// Server profiles: the wire behaviour of the server a load test will meet,
// so that a rehearsal against the mock times and parses what the real one
// sends. Config.Profile names one. A profile changes the OpenAI, legacy
// completions and Anthropic endpoints (when the opening event leaves, the
// chunks' members, heartbeats, error bodies, headers) and the discovery
// routes; the business dialect, the assistant's own, is the same under
// every profile, and so are the timings of the chain: a profile moves
// events, it never draws other latencies. docs/mock.md tables the profiles
// and where each behaviour was learned.

// The profile names.
const (
	// ProfileAftersales is the mock's own behaviour (the default): the
	// opening event (role chunk, message_start) leaves at once, heartbeats
	// fill every silence of Config.HeartbeatMS.
	ProfileAftersales = "aftersales"
	// ProfileOpenAI is OpenAI's Chat Completions API: the role chunk leaves
	// when generation starts, reasoning is not streamed, usage is null on
	// every chunk but the last when include_usage is set.
	ProfileOpenAI = "openai"
	// ProfileVLLM is vLLM's OpenAI-compatible server.
	ProfileVLLM = "vllm"
	// ProfileLlamaCpp is llama.cpp's server (llama-server).
	ProfileLlamaCpp = "llamacpp"
	// ProfileTGI is Hugging Face text-generation-inference's Messages API.
	ProfileTGI = "tgi"
	// ProfileAnthropic is Anthropic's Messages API.
	ProfileAnthropic = "anthropic"
)

// ProfileNames lists the profiles, the default first.
var ProfileNames = []string{ProfileAftersales, ProfileOpenAI, ProfileVLLM, ProfileLlamaCpp, ProfileTGI, ProfileAnthropic}

// profile is the wire behaviour of one server. The stream writers, the
// error writer and the discovery routes consult it; nothing else branches
// on a profile's name.
type profile struct {
	name string
	// openAtFirstToken sends the opening event of the OpenAI, legacy
	// completions and Anthropic streams (role chunk, first empty
	// text_completion chunk, message_start) with the first generated token
	// (text, reasoning or tool call), in the same write, instead of at once.
	openAtFirstToken bool
	// headersAtFirstToken holds a stream's response headers until its first
	// event, as llama.cpp waits for the first result before it answers.
	headersAtFirstToken bool
	// keepAliveMS is the longest silence before a heartbeat: 0 for
	// Config.HeartbeatMS, < 0 for none (the heartbeat_flood fault still
	// floods).
	keepAliveMS float64
	// anthropicWhole answers POST /v1/messages with one message object
	// unless the body's "stream" is true, as Anthropic's API does; without
	// it the route always streams.
	anthropicWhole bool
	// chunk is the shape of the OpenAI chat-completion chunks.
	chunk chunkShape
	// errorBody appends the body of an error of the OpenAI and legacy
	// completions routes; nil for OpenAI's shape (see writeError).
	errorBody func(b []byte, status int, msg string) []byte
	// badRequest is the status of a request the OpenAI and completions
	// routes refuse; 0 for 400 (TGI's is 422).
	badRequest int
	// health answers GET /v1/health and GET /health (GET /healthz always
	// has the live counters).
	health healthBody
	// modelOwner is the owned_by of GET /v1/models; "" for the model's
	// name (TGI).
	modelOwner string
	// info adds GET /info (TGI's model information).
	info bool
	// contentType is the Content-Type of streams.
	contentType string
	// headers are added to every chat answer, streamed or whole.
	headers []header
	// requestID names the header carrying "req_" and the message id; ""
	// for none.
	requestID string
}

// header is one response header.
type header struct{ name, value string }

// chunkShape is how a profile renders an OpenAI chat-completion chunk:
//
//	{"id":…,"object":"chat.completion.chunk"[,"created":…],"model":…<head>,
//	 "choices":[{"index":0,"delta":…[,"logprobs":null],"finish_reason":…<finishExtra>}]
//	 [,"usage":null][,"queue_ms":…],"server_ms":…}
type chunkShape struct {
	// created adds the Unix "created" time of the request's arrival.
	created bool
	// blankID sends "id":"" (TGI) instead of "chatcmpl-" and the id.
	blankID bool
	// head is raw JSON members after "model" (system_fingerprint, …).
	head string
	// roleChunk sends the role-only chunk with delta roleDelta; without it
	// the first token's chunk is the first chunk (TGI).
	roleChunk bool
	roleDelta string
	// roleEveryDelta puts "role":"assistant" in every delta (TGI).
	roleEveryDelta bool
	// logprobs adds "logprobs":null to every choice.
	logprobs bool
	// finishDelta is the delta of the chunk carrying finish_reason, and
	// finishExtra raw members after its finish_reason.
	finishDelta, finishExtra string
	// reasoning is the delta member of reasoning tokens: reasoning_content,
	// content (inline with the answer, as servers without a reasoning
	// parser send them), or "" for none streamed (OpenAI hides them; they
	// still count in the usage).
	reasoning string
	// toolIDPrefix prefixes a tool call's id.
	toolIDPrefix string
	// usageNull adds "usage":null to every chunk but the usage chunk.
	usageNull usageNullRule
	// usageDetails adds completion_tokens_details to the usage.
	usageDetails bool
	// timings adds llama.cpp's timings object to the last chunk before
	// [DONE] and to whole answers.
	timings bool
}

// usageNullRule says when chunks carry "usage":null.
type usageNullRule uint8

const (
	usageNullNever    usageNullRule = iota
	usageNullIncluded               // with stream_options.include_usage (OpenAI)
	usageNullAlways                 // always (TGI)
)

// healthBody is the answer of GET /v1/health and GET /health.
type healthBody uint8

const (
	healthCounters healthBody = iota // {"status":"ok","active":…,"queued":…,"requests":…}
	healthEmpty                      // 200 with an empty body (vLLM, TGI)
	healthOK                         // {"status":"ok"} (llama.cpp)
)

// aftersalesChunk is the mock's own chunk shape.
var aftersalesChunk = chunkShape{
	roleChunk: true, roleDelta: `{"role":"assistant","content":""}`, finishDelta: `{}`,
	reasoning: "reasoning_content", toolIDPrefix: "call_", usageDetails: true,
}

// profiles holds every profile by name.
var profiles = map[string]*profile{
	ProfileAftersales: {
		name: ProfileAftersales, chunk: aftersalesChunk, modelOwner: "usefullatency",
	},
	ProfileOpenAI: {
		name: ProfileOpenAI, openAtFirstToken: true, keepAliveMS: -1,
		chunk: chunkShape{
			created: true, head: `,"service_tier":"default","system_fingerprint":"fp_usefullatency"`,
			roleChunk: true, roleDelta: `{"role":"assistant","content":"","refusal":null}`, logprobs: true,
			finishDelta: `{}`, toolIDPrefix: "call_", usageNull: usageNullIncluded, usageDetails: true,
		},
		modelOwner: "system", requestID: "X-Request-Id",
	},
	ProfileVLLM: {
		name: ProfileVLLM, openAtFirstToken: true, keepAliveMS: -1, anthropicWhole: true,
		chunk: chunkShape{
			created: true, roleChunk: true, roleDelta: `{"role":"assistant","content":""}`, logprobs: true,
			finishDelta: `{"content":""}`, finishExtra: `,"stop_reason":null`,
			reasoning: "reasoning_content", toolIDPrefix: "chatcmpl-tool-",
		},
		errorBody: vllmError, health: healthEmpty, modelOwner: "vllm",
		contentType: "text/event-stream; charset=utf-8",
	},
	ProfileLlamaCpp: {
		name: ProfileLlamaCpp, openAtFirstToken: true, headersAtFirstToken: true, keepAliveMS: -1, anthropicWhole: true,
		chunk: chunkShape{
			created: true, head: `,"system_fingerprint":"b0-usefullatency"`,
			roleChunk: true, roleDelta: `{"role":"assistant","content":null}`, finishDelta: `{}`,
			reasoning: "reasoning_content", toolIDPrefix: "call_", timings: true,
		},
		errorBody: llamaCppError, health: healthOK, modelOwner: "llamacpp",
	},
	ProfileTGI: {
		name: ProfileTGI, openAtFirstToken: true, keepAliveMS: 15000, anthropicWhole: true,
		chunk: chunkShape{
			created: true, blankID: true, head: `,"system_fingerprint":"usefullatency-native"`,
			roleEveryDelta: true, logprobs: true, finishDelta: `{"role":"assistant","content":""}`,
			reasoning: "content", toolIDPrefix: "call_", usageNull: usageNullAlways,
		},
		errorBody: tgiError, badRequest: http.StatusUnprocessableEntity, health: healthEmpty, info: true,
		headers: []header{{"X-Compute-Type", "gpu+optimized"}, {"X-Accel-Buffering", "no"}},
	},
	ProfileAnthropic: {
		name: ProfileAnthropic, openAtFirstToken: true, anthropicWhole: true, chunk: aftersalesChunk,
		modelOwner: "anthropic", requestID: "Request-Id",
	},
}

// lookupProfile returns the named profile ("" is aftersales).
func lookupProfile(name string) (*profile, bool) {
	if name == "" {
		name = ProfileAftersales
	}
	p, ok := profiles[name]
	return p, ok
}

// keepAlive returns the heartbeat interval of the profile under cfg, 0 for
// none.
func (p *profile) keepAlive(cfg *Config) time.Duration {
	switch {
	case p.keepAliveMS < 0:
		return 0
	case p.keepAliveMS > 0:
		return msDuration(p.keepAliveMS)
	}
	return msDuration(cfg.HeartbeatMS)
}

// badRequestStatus returns the status of a refused request of dialect d:
// the profile's on the OpenAI and completions routes, else 400.
func (p *profile) badRequestStatus(d Dialect) int {
	if p.badRequest != 0 && d.openAILike() {
		return p.badRequest
	}
	return http.StatusBadRequest
}

// streamContentType returns the Content-Type of the profile's streams.
func (p *profile) streamContentType() string {
	if p.contentType != "" {
		return p.contentType
	}
	return "text/event-stream"
}

// setHeaders sets the profile's headers of a chat answer with message id
// id.
func (p *profile) setHeaders(h http.Header, id string) {
	for _, kv := range p.headers {
		h.Set(kv.name, kv.value)
	}
	if p.requestID != "" {
		h.Set(p.requestID, "req_"+id)
	}
}

// openAtFirstToken returns steps with the opening step (steps[0], opStart)
// moved to the first generated token (the first text, reasoning or
// tool-call step), just before it, and its new time. Steps without a
// token, or without an opening step, come back unchanged (moved false).
func openAtFirstToken(steps []step) (out []step, at time.Duration, moved bool) {
	if len(steps) == 0 || steps[0].op != opStart {
		return steps, 0, false
	}
	for k, st := range steps {
		switch st.op {
		case opText, opReasoning, opToolStart:
			open := steps[0]
			open.at, open.quiet = st.at, st.quiet
			copy(steps, steps[1:k])
			steps[k-1] = open
			return steps, st.at, true
		}
	}
	return steps, 0, false
}

// vllmError appends vLLM's error body (vLLM 0.10.1 and later; earlier
// versions sent the members of "error" at the top level with
// "object":"error"):
//
//	{"error":{"message":"…","type":"BadRequestError","param":null,"code":400}}
//
// The type is the status phrase in one word ending in Error, as vLLM's
// (BadRequestError, NotFoundError, InternalServerError, …).
func vllmError(b []byte, status int, msg string) []byte {
	typ := strings.ReplaceAll(http.StatusText(status), " ", "")
	if !strings.HasSuffix(typ, "Error") {
		typ += "Error"
	}
	b = appendString(append(b, `{"error":{"message":`...), msg)
	b = appendString(append(b, `,"type":`...), typ)
	b = appendInt(append(b, `,"param":null,"code":`...), status)
	return append(b, "}}\n"...)
}

// llamaCppError appends llama.cpp's error body:
//
//	{"error":{"code":400,"message":"…","type":"invalid_request_error"}}
//
// with its types by status (llama.cpp never answers 429: a rate limit of
// the http_error fault gets unavailable_error, its type of 503).
func llamaCppError(b []byte, status int, msg string) []byte {
	typ := "server_error"
	switch status {
	case http.StatusBadRequest:
		typ = "invalid_request_error"
	case http.StatusUnauthorized:
		typ = "authentication_error"
	case http.StatusForbidden:
		typ = "permission_error"
	case http.StatusNotFound:
		typ = "not_found_error"
	case http.StatusNotImplemented:
		typ = "not_supported_error"
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		typ = "unavailable_error"
	}
	b = appendInt(append(b, `{"error":{"code":`...), status)
	b = appendString(append(b, `,"message":`...), msg)
	b = appendString(append(b, `,"type":`...), typ)
	return append(b, "}}\n"...)
}

// tgiError appends text-generation-inference's error body,
//
//	{"error":"…","error_type":"validation"}
//
// with its types by status: validation (422, what TGI answers a request it
// refuses), overloaded (429; 503 too), generation (424),
// incomplete_generation (anything else).
func tgiError(b []byte, status int, msg string) []byte {
	typ := "incomplete_generation"
	switch status {
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		typ = "validation"
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		typ = "overloaded"
	case http.StatusFailedDependency:
		typ = "generation"
	}
	b = appendString(append(b, `{"error":`...), msg)
	b = appendString(append(b, `,"error_type":`...), typ)
	return append(b, "}\n"...)
}
