package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Dialect is the wire format of a stream, chosen by the endpoint.
type Dialect string

// The dialects and their endpoints.
const (
	// Business is POST /chat: {"delta": …, "business_state": {…}} events.
	Business Dialect = "business"
	// OpenAI is POST /v1/chat/completions: chat.completion.chunk events.
	OpenAI Dialect = "openai"
	// Anthropic is POST /v1/messages: the Messages API event sequence.
	Anthropic Dialect = "anthropic"
	// Completions is POST /v1/completions: OpenAI's legacy text completions,
	// text_completion events.
	Completions Dialect = "completions"
)

// openAILike reports whether d is one of OpenAI's dialects, which answer
// with one JSON object instead of a stream unless the body's "stream" is
// true.
func (d Dialect) openAILike() bool { return d == OpenAI || d == Completions }

// RequestError is a request the mock refuses with 400 Bad Request.
type RequestError struct {
	// Msg is the one-line reason, e.g. `unknown fault "x" (known: …)`.
	Msg string
}

func (e *RequestError) Error() string { return "mock: bad request: " + e.Msg }

// badRequest returns a *RequestError with a formatted message.
func badRequest(format string, args ...any) error {
	return &RequestError{Msg: fmt.Sprintf(format, args...)}
}

// request is a parsed request body.
type request struct {
	bucket, tenant, model string
	// questionLen is the length in bytes of the question (business) or of
	// the messages' text (OpenAI, Anthropic).
	questionLen int
	// seed is the mock's own seed: it pins the timings, the faults and the
	// message and tool-call ids, and the content unless contentSeed is set.
	seed    int64
	hasSeed bool
	// contentSeed is an OpenAI/Anthropic "seed": it pins only the content.
	contentSeed    int64
	hasContentSeed bool
	// maxTokens is the request's output token limit, 0 for none.
	maxTokens    int
	faults       faultSet
	httpStatus   int
	reasoning    bool
	includeUsage bool
	// whole is an OpenAI-dialect request whose "stream" is absent or false:
	// it is answered with one JSON object. Anthropic requests set it too,
	// for the profiles that answer them whole (see plan).
	whole bool
}

// controlFields are the fields that steer the mock. They are read from the
// top level of the body, and for OpenAI and Anthropic bodies also from a
// "metadata" object (whose values may all be strings); top level wins.
type controlFields struct {
	Bucket          string          `json:"bucket"`
	Tenant          string          `json:"tenant"`
	Seed            json.RawMessage `json:"seed"`
	MockSeed        json.RawMessage `json:"mock_seed"`
	Faults          json.RawMessage `json:"faults"`
	HTTPErrorStatus json.RawMessage `json:"http_error_status"`
	Reasoning       json.RawMessage `json:"reasoning"`
}

// wireRequest is the union of the request bodies of the dialects.
// Unknown fields are ignored, as real APIs accept many options.
type wireRequest struct {
	controlFields
	Question      string          `json:"question"`
	Messages      []wireMessage   `json:"messages"`
	Prompt        json.RawMessage `json:"prompt"`
	Stream        json.RawMessage `json:"stream"`
	Metadata      *controlFields  `json:"metadata"`
	Model         string          `json:"model"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	ReasoningEffort string `json:"reasoning_effort"`
	Thinking        struct {
		Type string `json:"type"`
	} `json:"thinking"`
	MaxTokens           json.RawMessage `json:"max_tokens"`
	MaxCompletionTokens json.RawMessage `json:"max_completion_tokens"`
}

// wireMessage is one chat message; content is a string or an array of parts.
type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// parseRequest reads a request body of dialect d and the value of its
// X-Usefullatency-Seed request header ("" when absent). An empty body means
// {}. Global faults are added to the request's own.
func parseRequest(d Dialect, body []byte, seedHeader string, global faultSet) (request, error) {
	var w wireRequest
	if len(bytes.TrimSpace(body)) > 0 {
		if err := json.Unmarshal(body, &w); err != nil {
			return request{}, badRequest("invalid JSON body: %v", err)
		}
	}
	if d != Business && w.Metadata != nil {
		w.controlFields = mergeControl(w.controlFields, *w.Metadata)
	}
	r := request{bucket: w.Bucket, tenant: w.Tenant, model: w.Model, includeUsage: w.StreamOptions.IncludeUsage}
	if r.bucket == "" {
		r.bucket = BucketQA
	}
	if (&Buckets{}).get(r.bucket) == nil {
		return request{}, badRequest("unknown bucket %q (known: %s)", r.bucket, strings.Join(BucketNames, ", "))
	}
	if r.tenant == "" {
		r.tenant = "default"
	}
	err := r.parseSeeds(d, &w, seedHeader)
	if err != nil {
		return request{}, err
	}
	if d != Business {
		if r.maxTokens, err = parseMaxTokens(w.MaxTokens, w.MaxCompletionTokens); err != nil {
			return request{}, err
		}
	}
	if r.faults, err = parseFaultField(w.Faults, global); err != nil {
		return request{}, err
	}
	if r.httpStatus, err = parseStatus(w.HTTPErrorStatus); err != nil {
		return request{}, err
	}
	switch {
	case d.openAILike():
		if r.whole, err = parseWhole(w.Stream); err != nil {
			return request{}, err
		}
	case d == Anthropic:
		// Whole only where the profile makes Anthropic's default (no
		// stream) a whole answer; a "stream" that is not a boolean
		// streams, as the route always did.
		r.whole, err = parseWhole(w.Stream)
		r.whole = r.whole && err == nil
	}
	r.reasoning = (d == OpenAI || d == Anthropic) && (truthy(w.Reasoning) ||
		(w.ReasoningEffort != "" && w.ReasoningEffort != "none") || w.Thinking.Type == "enabled")
	r.questionLen = len(w.Question) + len(w.Prompt)
	for _, m := range w.Messages {
		r.questionLen += len(m.Content)
	}
	return r, nil
}

// parseSeeds sets the request's seeds. The mock's own seed, which pins the
// timings, is mock_seed, else (business dialect only, whose body is the
// mock's own format) seed, else the X-Usefullatency-Seed request header. In
// the OpenAI and Anthropic dialects seed is the API's sampling seed: it
// pins only the content, so many requests with one seed still get their
// own timings.
func (r *request) parseSeeds(d Dialect, w *wireRequest, header string) error {
	var err error
	if d != Business {
		if r.contentSeed, r.hasContentSeed, err = parseSeed("seed", w.Seed); err != nil {
			return err
		}
	}
	type field struct {
		name string
		raw  json.RawMessage
	}
	own := []field{{"mock_seed", w.MockSeed}}
	if d == Business {
		own = append(own, field{"seed", w.Seed})
	}
	if header != "" {
		own = append(own, field{SeedHeader + " header", json.RawMessage(strconv.Quote(header))})
	}
	for _, f := range own {
		if r.seed, r.hasSeed, err = parseSeed(f.name, f.raw); err != nil || r.hasSeed {
			return err
		}
	}
	return nil
}

// parseMaxTokens reads OpenAI max_tokens and max_completion_tokens (or
// Anthropic max_tokens): the smaller of those given, 0 when neither is.
func parseMaxTokens(fields ...json.RawMessage) (int, error) {
	limit := 0
	for i, raw := range fields {
		if isAbsent(raw) {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(raw)))
		if err != nil || n < 1 {
			return 0, badRequest("%s must be a positive integer, got %s", [...]string{"max_tokens", "max_completion_tokens"}[i], raw)
		}
		if limit == 0 || n < limit {
			limit = n
		}
	}
	return limit, nil
}

// mergeControl returns top with its empty fields taken from meta.
func mergeControl(top, meta controlFields) controlFields {
	if top.Bucket == "" {
		top.Bucket = meta.Bucket
	}
	if top.Tenant == "" {
		top.Tenant = meta.Tenant
	}
	for _, p := range [...]struct{ dst, src *json.RawMessage }{
		{&top.Seed, &meta.Seed}, {&top.MockSeed, &meta.MockSeed}, {&top.Faults, &meta.Faults},
		{&top.HTTPErrorStatus, &meta.HTTPErrorStatus}, {&top.Reasoning, &meta.Reasoning},
	} {
		if isAbsent(*p.dst) {
			*p.dst = *p.src
		}
	}
	return top
}

// isAbsent reports whether a raw field is missing or null.
func isAbsent(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// unquote returns the contents of a JSON string, or raw itself otherwise.
func unquote(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// parseSeed reads the named seed given as a JSON integer or a string of one.
func parseSeed(name string, raw json.RawMessage) (int64, bool, error) {
	if isAbsent(raw) {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(unquote(raw)), 10, 64)
	if err != nil {
		return 0, false, badRequest("%s must be an integer in the int64 range, got %s", name, raw)
	}
	return n, true, nil
}

// parseFaultField reads faults given as an array of names or a
// comma-separated string.
func parseFaultField(raw json.RawMessage, global faultSet) (faultSet, error) {
	if isAbsent(raw) {
		return global, nil
	}
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, badRequest("faults must be an array of fault names or a comma-separated string")
		}
		names = strings.Split(s, ",")
	}
	fs, err := parseFaults(names, global)
	if err != nil {
		return 0, &RequestError{Msg: err.Error()}
	}
	return fs, nil
}

// parseStatus reads http_error_status: 0 when absent, else 400–599.
func parseStatus(raw json.RawMessage) (int, error) {
	if isAbsent(raw) {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(unquote(raw)))
	if err != nil || n < 400 || n > 599 {
		return 0, badRequest("http_error_status must be an HTTP error status (400-599), got %s", raw)
	}
	return n, nil
}

// parseWhole reads an OpenAI "stream" field and reports whether the answer
// is one JSON object: when it is absent, null or false. true streams; the
// strings "true" and "false" are taken for the booleans; anything else is
// an error.
func parseWhole(raw json.RawMessage) (bool, error) {
	if isAbsent(raw) {
		return true, nil
	}
	switch strings.TrimSpace(unquote(raw)) {
	case "true":
		return false, nil
	case "false":
		return true, nil
	}
	return false, badRequest("stream must be a boolean, got %s", raw)
}

// truthy reports whether a raw reasoning field asks for reasoning: true, a
// non-empty string other than "false"/"none", or an object.
func truthy(raw json.RawMessage) bool {
	switch s := strings.TrimSpace(string(raw)); {
	case s == "" || s == "null" || s == "false":
		return false
	case s[0] == '"':
		v := unquote(raw)
		return v != "" && v != "false" && v != "none"
	}
	return true
}
