package mock

import (
	"strings"
	"testing"
	"time"
)

// profileConfig is fastConfig under the named profile with a first-token
// latency (150/250 ms) long enough to tell "at once" from "at the first
// token" on a busy machine.
func profileConfig(name string) Config {
	c := fastConfig()
	c.Profile = name
	for _, n := range BucketNames {
		c.Buckets.get(n).FirstToken = Dist{MedianMS: 150, P95MS: 250}
	}
	return c
}

// firstToken returns the scheduled time of a schedule's first generated
// token (text, reasoning or tool call), failing the test if it has none.
func firstToken(t *testing.T, s Schedule) time.Duration {
	t.Helper()
	for _, e := range s.Events {
		switch e.Kind {
		case KindText, KindReasoning, KindTool:
			return e.At
		}
	}
	t.Fatal("the schedule has no token")
	return 0
}

// TestOpenAtFirstToken checks the pure step transform: the opening step
// moves to the first token (text, reasoning or tool call), before it and
// after the states that precede it; without a token nothing moves.
func TestOpenAtFirstToken(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name  string
		steps []step
		want  []op
		at    time.Duration
		moved bool
	}{
		{"text after states", []step{{op: opStart}, {at: 5 * ms, op: opState}, {at: 9 * ms, op: opState}, {at: 40 * ms, op: opText}, {at: 50 * ms, op: opDone}},
			[]op{opState, opState, opStart, opText, opDone}, 40 * ms, true},
		{"tool call first", []step{{op: opStart}, {at: 3 * ms, op: opState}, {at: 30 * ms, op: opToolStart}, {at: 31 * ms, op: opToolArgs}},
			[]op{opState, opStart, opToolStart, opToolArgs}, 30 * ms, true},
		{"reasoning first", []step{{op: opStart}, {at: 20 * ms, op: opReasoning}, {at: 60 * ms, op: opText}},
			[]op{opStart, opReasoning, opText}, 20 * ms, true},
		{"no token", []step{{op: opStart}, {at: 3 * ms, op: opState}, {at: 4 * ms, op: opDone}},
			[]op{opStart, opState, opDone}, 0, false},
		{"empty", nil, nil, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, at, moved := openAtFirstToken(append([]step(nil), c.steps...))
			var got []op
			for _, st := range out {
				got = append(got, st.op)
			}
			if mustJSON(got) != mustJSON(c.want) || at != c.at || moved != c.moved {
				t.Errorf("ops %v at %v moved %v, want %v at %v moved %v", got, at, moved, c.want, c.at, c.moved)
			}
			for i := 1; i < len(out); i++ {
				if out[i].at < out[i-1].at {
					t.Errorf("step %d at %v before step %d at %v", i, out[i].at, i-1, out[i-1].at)
				}
			}
		})
	}
}

// TestProfileFirstChunkTime sends one seeded stream per profile and dialect
// and finds its first chunk where the profile puts it: at once under
// aftersales, at the scheduled time of the first token (the plan's first
// content event) under the others, written together with that token. The
// times are the server's own (server_ms less the queue time); the client's
// arrival times must agree within loopback jitter. The chain's timings are
// the same under every profile. Its streams run together but not with the
// package's other parallel tests, whose load would blur the times.
func TestProfileFirstChunkTime(t *testing.T) {
	for _, name := range ProfileNames {
		cfg := profileConfig(name)
		_, url := start(t, cfg)
		for _, d := range []struct {
			d    Dialect
			path string
		}{{OpenAI, "/v1/chat/completions"}, {Anthropic, "/v1/messages"}, {Completions, "/v1/completions"}} {
			t.Run(name+"/"+string(d.d), func(t *testing.T) {
				t.Parallel()
				body := `{"bucket":"retrieval","mock_seed":17,"stream":true,"max_tokens":12}`
				p, err := Plan(d.d, []byte(body), cfg)
				if err != nil {
					t.Fatal(err)
				}
				base := cfg
				base.Profile = ProfileAftersales
				ref, _ := Plan(d.d, []byte(body), base)
				token := durationMS(firstToken(t, ref))
				if got := durationMS(firstToken(t, p)); got != token {
					t.Fatalf("first token at %.3f ms under %s, %.3f under aftersales: a profile changed the timings", got, name, token)
				}
				x := postT(t, url+d.path, body)
				evs := x.dataEvents()
				if x.err != nil || len(evs) < 2 {
					t.Fatalf("status %d, err %v, %d events", x.status, x.err, len(evs))
				}
				queue := queueMS(x)
				first := evs[0].serverMS() - queue
				want := token
				if name == ProfileAftersales {
					want = 0
				}
				if late := first - want; late < -0.01 || late > 50 {
					t.Errorf("first chunk %q at %.3f ms, want %.3f (first token at %.3f)", evs[0].data, first, want, token)
				}
				if arrived := durationMS(evs[0].arrived) - queue; arrived < want-1 || arrived > want+150 {
					t.Errorf("first chunk arrived at %.3f ms (less the queue), want %.3f", arrived, want)
				}
				if name == ProfileAftersales || isToken(evs[0]) { // TGI's first chunk is the token
					return
				}
				// The token leaves in the same write as the opening chunk:
				// the same server_ms.
				for _, e := range evs[1:] {
					if isToken(e) {
						if e.serverMS() != evs[0].serverMS() {
							t.Errorf("first token at server_ms %.3f, opening chunk at %.3f", e.serverMS(), evs[0].serverMS())
						}
						break
					}
				}
			})
		}
	}
}

// isToken reports whether a client-side event adds text, reasoning or a
// tool call in any dialect.
func isToken(e sseEvent) bool {
	m := e.obj()
	if d, ok := path(m, "delta").(map[string]any); ok && (d["text"] != nil || d["thinking"] != nil || d["partial_json"] != nil) {
		return true
	}
	choices, _ := m["choices"].([]any)
	if len(choices) == 0 {
		return false
	}
	c, _ := choices[0].(map[string]any)
	if s, _ := c["text"].(string); s != "" {
		return true
	}
	d, _ := c["delta"].(map[string]any)
	s, _ := d["content"].(string)
	return s != "" || d["reasoning_content"] != nil || d["tool_calls"] != nil
}

// TestProfileReasoningFirst checks when the role chunk leaves if the first
// token is reasoning: vllm sends it with the first reasoning chunk; openai
// sends it then too (generation started) but streams no reasoning, so the
// next chunk is the tool call, long after; both count the reasoning tokens.
func TestProfileReasoningFirst(t *testing.T) {
	t.Parallel()
	body := `{"bucket":"single_tool","mock_seed":23,"stream":true,"reasoning_effort":"low","stream_options":{"include_usage":true}}`
	for _, name := range []string{ProfileVLLM, ProfileOpenAI} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg := profileConfig(name)
			_, url := start(t, cfg)
			p, err := Plan(OpenAI, []byte(body), cfg)
			if err != nil {
				t.Fatal(err)
			}
			base := cfg
			base.Profile = ProfileAftersales
			ref, _ := Plan(OpenAI, []byte(body), base)
			reasoningAt := durationMS(firstToken(t, ref))
			x := postT(t, url+"/v1/chat/completions", body)
			evs := x.dataEvents()
			queue := queueMS(x)
			if late := evs[0].serverMS() - queue - reasoningAt; late < -0.01 || late > 50 {
				t.Errorf("role chunk at %.3f ms, first reasoning token at %.3f", evs[0].serverMS()-queue, reasoningAt)
			}
			s := readStream(t, x)
			reasoningTokens, _ := path(s.usage, "completion_tokens_details.reasoning_tokens").(float64)
			switch name {
			case ProfileVLLM:
				if s.reasoning == "" || !strings.Contains(evs[1].data, "reasoning_content") || evs[1].serverMS() != evs[0].serverMS() {
					t.Errorf("vllm: second chunk %s, reasoning %q", evs[1].data, s.reasoning)
				}
			case ProfileOpenAI:
				if s.reasoning != "" || !strings.Contains(evs[1].data, "tool_calls") {
					t.Errorf("openai: reasoning %q streamed, second chunk %s", s.reasoning, evs[1].data)
				}
				if gap := evs[1].serverMS() - evs[0].serverMS(); gap < 10 || reasoningTokens < 5 || int(reasoningTokens) != p.Usage.ReasoningTokens {
					t.Errorf("openai: tool call %.3f ms after the role chunk, reasoning_tokens %v (plan %d)", gap, reasoningTokens, p.Usage.ReasoningTokens)
				}
			}
		})
	}
}

// TestProfileHeaders checks when a stream's headers leave and which ones it
// carries: at once for every profile but llamacpp, whose headers wait for
// the first token, as llama.cpp awaits its first result before answering.
func TestProfileHeaders(t *testing.T) {
	t.Parallel()
	body := `{"bucket":"qa","mock_seed":3,"stream":true,"max_tokens":3}`
	for _, c := range []struct {
		profile, contentType string
		atToken              bool
		headers              map[string]string
	}{
		{ProfileAftersales, "text/event-stream", false, nil},
		{ProfileOpenAI, "text/event-stream", false, map[string]string{"X-Request-Id": "req_"}},
		{ProfileVLLM, "text/event-stream; charset=utf-8", false, nil},
		{ProfileLlamaCpp, "text/event-stream", true, nil},
		{ProfileTGI, "text/event-stream", false, map[string]string{"X-Compute-Type": "gpu+optimized", "X-Accel-Buffering": "no"}},
		{ProfileAnthropic, "text/event-stream", false, map[string]string{"Request-Id": "req_"}},
	} {
		t.Run(c.profile, func(t *testing.T) {
			t.Parallel()
			cfg := profileConfig(c.profile)
			_, url := start(t, cfg)
			p, _ := Plan(OpenAI, []byte(body), cfg)
			token := firstToken(t, p)
			x := postT(t, url+"/v1/chat/completions", body)
			if got := x.header.Get("Content-Type"); got != c.contentType {
				t.Errorf("Content-Type %q, want %q", got, c.contentType)
			}
			for k, v := range c.headers {
				if !strings.HasPrefix(x.header.Get(k), v) {
					t.Errorf("%s: %q, want %q…", k, x.header.Get(k), v)
				}
			}
			waited := x.headers >= token
			if waited != c.atToken || c.atToken && x.headers > token+150*time.Millisecond {
				t.Errorf("headers after %v, first token at %v: want them at the token %v", x.headers, token, c.atToken)
			}
		})
	}
}

// TestProfileChunks checks the chunk members and usage rules of each
// profile on one stream with include_usage and one without: the role
// delta, the members every chunk carries or lacks, the finish chunk, the
// usage chunk (only with include_usage), usage null, llama.cpp's timings
// on the last chunk.
func TestProfileChunks(t *testing.T) {
	t.Parallel()
	type want struct {
		role            string // the first chunk's delta
		members, absent []string
		finishDelta     string
		usageNull       string // "never", "included", "always"
		details         bool
		timings         bool
	}
	for _, c := range []struct {
		profile string
		want    want
	}{
		{ProfileAftersales, want{`{"content":"","role":"assistant"}`, nil, []string{"created", "system_fingerprint"}, `{}`, "never", true, false}},
		{ProfileOpenAI, want{`{"content":"","refusal":null,"role":"assistant"}`, []string{"created", "system_fingerprint", "service_tier"}, nil, `{}`, "included", true, false}},
		{ProfileVLLM, want{`{"content":"","role":"assistant"}`, []string{"created"}, []string{"system_fingerprint"}, `{"content":""}`, "never", false, false}},
		{ProfileLlamaCpp, want{`{"content":null,"role":"assistant"}`, []string{"created", "system_fingerprint"}, nil, `{}`, "never", false, true}},
		{ProfileTGI, want{"", []string{"created", "system_fingerprint"}, nil, `{"content":"","role":"assistant"}`, "always", false, false}},
	} {
		for _, include := range []bool{true, false} {
			t.Run(c.profile+map[bool]string{true: "/include_usage", false: "/no_usage"}[include], func(t *testing.T) {
				t.Parallel()
				_, url := start(t, profileConfig(c.profile))
				body := `{"bucket":"qa","mock_seed":3,"stream":true,"max_tokens":3}`
				if include {
					body = `{"bucket":"qa","mock_seed":3,"stream":true,"max_tokens":3,"stream_options":{"include_usage":true}}`
				}
				x := postT(t, url+"/v1/chat/completions", body)
				evs := x.dataEvents()
				if x.err != nil || evs[len(evs)-1].data != "[DONE]" {
					t.Fatalf("err %v, events %v", x.err, evs)
				}
				chunks := evs[:len(evs)-1]
				w := c.want
				delta := path(chunks[0].obj(), "choices").([]any)[0].(map[string]any)["delta"].(map[string]any)
				if w.role == "" { // no role-only chunk: the first token's, with the role
					if s, _ := delta["content"].(string); s == "" || delta["role"] != "assistant" {
						t.Errorf("first delta %s, want the role and the first token", mustJSON(delta))
					}
				} else if d := mustJSON(delta); d != w.role {
					t.Errorf("first delta %s, want %s", d, w.role)
				}
				last := chunks[len(chunks)-1].obj()
				usageChunk := include && len(last["choices"].([]any)) == 0
				if usageChunk != include || !include && strings.Contains(chunks[len(chunks)-1].data, `"usage":{`) {
					t.Errorf("include_usage %v, last chunk %s", include, chunks[len(chunks)-1].data)
				}
				fin := chunks[len(chunks)-1]
				if include {
					fin = chunks[len(chunks)-2]
					if _, ok := path(last, "usage.completion_tokens_details").(map[string]any); ok != w.details {
						t.Errorf("usage details %v, want %v: %s", ok, w.details, chunks[len(chunks)-1].data)
					}
				}
				choice := path(fin.obj(), "choices").([]any)[0].(map[string]any)
				if mustJSON(choice["delta"]) != w.finishDelta || choice["finish_reason"] != "length" {
					t.Errorf("finish chunk %s, want delta %s", fin.data, w.finishDelta)
				}
				if _, ok := chunks[len(chunks)-1].obj()["timings"].(map[string]any); ok != w.timings {
					t.Errorf("timings on the last chunk %v, want %v: %s", ok, w.timings, chunks[len(chunks)-1].data)
				}
				for i, e := range chunks {
					m := e.obj()
					for _, k := range w.members {
						if _, ok := m[k]; !ok {
							t.Errorf("chunk %d lacks %s: %s", i, k, e.data)
						}
					}
					for _, k := range w.absent {
						if _, ok := m[k]; ok {
							t.Errorf("chunk %d has %s: %s", i, k, e.data)
						}
					}
					if i == len(chunks)-1 && usageChunk {
						continue
					}
					u, has := m["usage"]
					wantNull := w.usageNull == "always" || w.usageNull == "included" && include
					if has != wantNull || has && u != nil {
						t.Errorf("chunk %d usage %v (present %v), want null %v: %s", i, u, has, wantNull, e.data)
					}
				}
				if c.profile != ProfileAftersales && x.comments() != 0 {
					t.Errorf("%d heartbeat comments: the profile sends none in short silences", x.comments())
				}
			})
		}
	}
}

// TestProfileErrors checks the error bodies of the OpenAI routes per
// profile: a refused request (TGI answers 422) and the http_error fault's
// 429 and 503; the Anthropic route keeps Anthropic's shape.
func TestProfileErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		profile    string
		badStatus  int
		bad        string // the refused request's body, volatile message left out
		rate, down string // the types of 429 and 503
	}{
		{ProfileAftersales, 400, `{"error":{"code":null,"param":null,"type":"invalid_request_error"}}`, "rate_limit_exceeded", "server_error"},
		{ProfileOpenAI, 400, `{"error":{"code":null,"param":null,"type":"invalid_request_error"}}`, "rate_limit_exceeded", "server_error"},
		{ProfileVLLM, 400, `{"error":{"code":400,"param":null,"type":"BadRequestError"}}`, "TooManyRequestsError", "ServiceUnavailableError"},
		{ProfileLlamaCpp, 400, `{"error":{"code":400,"type":"invalid_request_error"}}`, "unavailable_error", "unavailable_error"},
		{ProfileTGI, 422, `{"error_type":"validation"}`, "overloaded", "overloaded"},
	} {
		t.Run(c.profile, func(t *testing.T) {
			t.Parallel()
			_, url := start(t, profileConfig(c.profile))
			x := postT(t, url+"/v1/chat/completions", `{"bucket":"nope","stream":true}`)
			m := (sseEvent{data: string(x.body)}).obj()
			msg, _ := path(m, "error.message").(string)
			if e, ok := m["error"].(map[string]any); ok {
				delete(e, "message")
			} else {
				msg, _ = m["error"].(string)
				delete(m, "error")
			}
			if x.status != c.badStatus || mustJSON(m) != c.bad || !strings.Contains(msg, `unknown bucket "nope"`) {
				t.Errorf("bad request: %d %s, want %d %s", x.status, x.body, c.badStatus, c.bad)
			}
			for status, typ := range map[int]string{429: c.rate, 503: c.down} {
				x := postT(t, url+"/v1/completions", `{"faults":"http_error","http_error_status":`+itoa(status)+`}`)
				m := (sseEvent{data: string(x.body)}).obj()
				got, _ := path(m, "error.type").(string)
				if got == "" {
					got, _ = m["error_type"].(string)
				}
				if x.status != status || got != typ {
					t.Errorf("http_error %d: %d %s, want type %s", status, x.status, x.body, typ)
				}
			}
			x = postT(t, url+"/v1/messages", `{"bucket":"nope","stream":true}`)
			if path((sseEvent{data: string(x.body)}).obj(), "error.type") != "invalid_request_error" || x.status != 400 {
				t.Errorf("anthropic route: %d %s", x.status, x.body)
			}
		})
	}
}

// TestProfileRoutes checks the discovery routes per profile: the health
// route's body, the models' owner and TGI's /info.
func TestProfileRoutes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		profile, health, owner string
		info                   bool
	}{
		{ProfileAftersales, `"active":`, "usefullatency", false},
		{ProfileOpenAI, `"active":`, "system", false},
		{ProfileVLLM, "", "vllm", false},
		{ProfileLlamaCpp, `{"status":"ok"}` + "\n", "llamacpp", false},
		{ProfileTGI, "", "usefullatency-mock-1", true},
		{ProfileAnthropic, `"active":`, "anthropic", false},
	} {
		t.Run(c.profile, func(t *testing.T) {
			t.Parallel()
			cfg := profileConfig(c.profile)
			cfg.Version = "9.9.9"
			_, url := start(t, cfg)
			for _, p := range []string{"/health", "/v1/health"} {
				status, _, body := getString(t, url+p)
				if status != 200 || c.health == "" && body != "" || c.health != "" && !strings.Contains(body, c.health) {
					t.Errorf("%s: %d %q, want %q", p, status, body, c.health)
				}
			}
			if _, _, body := getString(t, url+"/healthz"); !strings.Contains(body, `"active":`) {
				t.Errorf("/healthz: %s, want the live counters", body)
			}
			if _, _, body := getString(t, url+"/v1/models"); path((sseEvent{data: body}).obj(), "data") == nil || !strings.Contains(body, `"owned_by":"`+c.owner+`"`) {
				t.Errorf("/v1/models: %s, want owner %s", body, c.owner)
			}
			status, _, body := getString(t, url+"/info")
			if info := status == 200; info != c.info || info && !strings.Contains(body, `"version":"9.9.9"`) {
				t.Errorf("/info: %d %s, want it %v", status, body, c.info)
			}
		})
	}
}

// getString is get with the body as a string.
func getString(t *testing.T, url string) (int, string, string) {
	t.Helper()
	status, typ, body := get(t, url)
	return status, typ, string(body)
}

// TestProfileAnthropic checks the Anthropic route under the anthropic
// profile: a stream opens at the first token with message_start,
// content_block_start, ping and the first delta, in one write; a request
// without "stream" gets one message object (under aftersales it streams,
// as it always did) after the stream's latency, with the blocks the stream
// would carry.
func TestProfileAnthropic(t *testing.T) {
	t.Parallel()
	cfg := profileConfig(ProfileAnthropic)
	_, url := start(t, cfg)
	x := postT(t, url+"/v1/messages", `{"bucket":"qa","mock_seed":4,"stream":true}`)
	evs := x.dataEvents()
	var seq []string
	for _, e := range evs[:4] {
		seq = append(seq, e.typ)
		if e.serverMS() != evs[0].serverMS() {
			t.Errorf("%s at server_ms %.3f, message_start at %.3f: not one write", e.typ, e.serverMS(), evs[0].serverMS())
		}
	}
	if strings.Join(seq, ",") != "message_start,content_block_start,ping,content_block_delta" || x.comments() != 0 {
		t.Errorf("stream opens with %v", seq)
	}

	body := `{"bucket":"single_tool","mock_seed":4,"thinking":{"type":"enabled","budget_tokens":1024}}`
	p, err := Plan(Anthropic, []byte(body), cfg)
	if err != nil || !p.Whole {
		t.Fatalf("plan: whole %v, err %v", p.Whole, err)
	}
	x = postT(t, url+"/v1/messages", body)
	m := (sseEvent{data: string(x.body)}).obj()
	if x.status != 200 || x.header.Get("Content-Type") != "application/json" || m["type"] != "message" || m["stop_reason"] != "end_turn" {
		t.Fatalf("whole message: %d %q %s", x.status, x.header.Get("Content-Type"), x.body)
	}
	var types []string
	var text string
	for _, b := range m["content"].([]any) {
		bl := b.(map[string]any)
		types = append(types, bl["type"].(string))
		switch bl["type"] {
		case "tool_use":
			if _, ok := bl["input"].(map[string]any); !ok || bl["name"] != toolRefundRules {
				t.Errorf("tool_use block %v", bl)
			}
		case "text":
			text = bl["text"].(string)
		}
	}
	if strings.Join(types, ",") != "thinking,tool_use,text" || text != p.Text() {
		t.Errorf("blocks %v, text %q, want the plan's %q", types, text, p.Text())
	}
	if out := path(m, "usage.output_tokens").(float64); int(out) != p.Usage.OutputTokens {
		t.Errorf("output_tokens %v, plan %d", out, p.Usage.OutputTokens)
	}
	if sm := m["server_ms"].(float64); sm < durationMS(p.Events[len(p.Events)-1].At) {
		t.Errorf("answered at server_ms %.3f, before the stream's end %.3f", sm, durationMS(p.Events[len(p.Events)-1].At))
	}

	_, aftersales := start(t, profileConfig(ProfileAftersales))
	if x := postT(t, aftersales+"/v1/messages", `{"bucket":"qa","mock_seed":4}`); !strings.HasPrefix(x.header.Get("Content-Type"), "text/event-stream") {
		t.Errorf("aftersales without stream: %q, want a stream", x.header.Get("Content-Type"))
	}
}

// TestProfileScheduleMatchesWire is TestScheduleMatchesWire under every
// profile but aftersales: the same events in the same order as the plan
// (heartbeats where planned, none under the profiles without keep-alive),
// each one's server_ms equal to its planned offset plus the queue time.
// Like TestScheduleMatchesWire it does not run beside the other parallel
// tests.
func TestProfileScheduleMatchesWire(t *testing.T) {
	for _, name := range ProfileNames[1:] {
		// One profile at a time: its 15 streams run together.
		t.Run(name, func(t *testing.T) {
			cfg := fastConfig()
			cfg.Profile = name
			_, url := start(t, cfg)
			for _, d := range []struct {
				d    Dialect
				path string
			}{{OpenAI, "/v1/chat/completions"}, {Anthropic, "/v1/messages"}, {Completions, "/v1/completions"}} {
				for _, b := range BucketNames {
					t.Run(string(d.d)+"/"+b, func(t *testing.T) {
						t.Parallel()
						matchWire(t, cfg, d.d, url+d.path, `{"bucket":"`+b+`","mock_seed":31,"reasoning":true,"stream":true,"stream_options":{"include_usage":true}}`)
					})
				}
			}
		})
	}
}

// matchWire sends body to url and compares the stream with the plan of
// the same body, event by event.
func matchWire(t *testing.T, cfg Config, d Dialect, url, body string) {
	t.Helper()
	p, err := Plan(d, []byte(body), cfg)
	if err != nil {
		t.Fatal(err)
	}
	x := postT(t, url, body)
	if len(x.events) != len(p.Events) {
		t.Fatalf("%d events, plan %d", len(x.events), len(p.Events))
	}
	queue := queueMS(x)
	for i, e := range x.events {
		pe := p.Events[i]
		if e.isComment() != (pe.Type == "comment") || (d == Anthropic && e.typ != pe.Type && !e.isComment()) {
			t.Fatalf("event %d: got %q %q, plan %+v", i, e.typ, e.data, pe)
		}
		if sm := e.serverMS(); sm >= 0 {
			if late := sm - queue - durationMS(pe.At); late < -0.01 || late > 50 {
				t.Errorf("event %d (%s): server_ms %.3f, plan %.3f + queue %.3f", i, pe.Kind, sm, durationMS(pe.At), queue)
			}
		}
	}
}

// TestProfileConfig checks that the profile is a configuration field: the
// JSON key "profile" sets it, an unknown name is an error listing the
// known ones, and the server reports its profile.
func TestProfileConfig(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{"profile":"vllm"}`))
	if err != nil || cfg.Profile != ProfileVLLM || New(cfg).Profile() != ProfileVLLM {
		t.Errorf("profile %q, err %v", cfg.Profile, err)
	}
	if DefaultConfig().Profile != ProfileAftersales || New(Config{}).Profile() != ProfileAftersales {
		t.Errorf("default profile %q", DefaultConfig().Profile)
	}
	_, err = ParseConfig([]byte(`{"profile":"sglang"}`))
	if err == nil || !strings.Contains(err.Error(), `unknown profile "sglang" (known: aftersales, openai, vllm, llamacpp, tgi, anthropic)`) {
		t.Errorf("unknown profile: %v", err)
	}
}
