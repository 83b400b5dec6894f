// Package mock is usefullatency's built-in system under test: a simulated
// after-sales assistant that streams server-sent events in three dialects,
// runs a whole business chain per request with seeded, realistic latencies
// per stage and bucket, stamps every event with the ground-truth server_ms,
// and injects named faults. It also answers as an OpenAI-compatible server
// (whole answers, legacy completions, models, version, health), so scripts
// written for other LLM servers run against it.
//
// Config.Profile picks the server whose wire behaviour the OpenAI, legacy
// completions and Anthropic routes imitate (see ProfileNames): the
// default, aftersales, sends a stream's opening event at once; the others
// (openai, vllm, llamacpp, tgi, anthropic) send it with the first token, as
// those servers do, with their chunk members, usage rules, heartbeats,
// error bodies, headers and health routes. The chain's timings are the
// same under every profile.
//
// # Endpoints
//
//   - POST /chat: the business dialect, {"delta": "...", "business_state":
//     {...}} events ending with {"done": true, "usage": {...}}.
//   - GET /chat: the chat page, a browser front end of POST /chat for the
//     UI probe (see chatpage.go).
//   - POST /v1/chat/completions: OpenAI chat-completion chunks ending with
//     data: [DONE] when the body's "stream" is true, else one
//     chat.completion object (see Schedule.Whole).
//   - POST /v1/completions: OpenAI legacy text_completion chunks ending
//     with data: [DONE] when "stream" is true, else one text_completion
//     object.
//   - POST /v1/messages: the Anthropic Messages event sequence ending with
//     message_stop; under the anthropic, vllm, llamacpp and tgi profiles
//     only when the body's "stream" is true, else one message object.
//   - GET /v1/models: {"object":"list","data":[{"id":…,"object":"model",…}]}.
//   - GET /v1/version: {"version":…} (Config.Version).
//   - GET /healthz, GET /v1/health: {"status":"ok","active":N,"queued":N,"requests":N}
//     (GET /v1/health as the profile's server answers it).
//   - GET /info: under the tgi profile, TGI's model information.
//
// The /v1 routes also answer without /v1 (POST /chat/completions, …).
//
// Streams are text/event-stream; events due at the same moment are written
// together, and every write is flushed at once. Every JSON event carries a
// top-level server_ms: the milliseconds (µs precision) from the request's
// arrival to the moment the event was written. Heartbeats are ": ping"
// comments (Anthropic: ping events).
//
// # Request body
//
// A JSON object; an empty body means {}. The business dialect reads these
// fields at the top level; the other dialects (OpenAI, legacy completions,
// Anthropic) also read them from a "metadata" object (whose values may be strings), the top level
// winning:
//
//   - bucket: qa (default), retrieval, single_tool, multi_tool or
//     timeout_recovery; anything else is a 400.
//   - tenant: the tenant whose worker slots the request queues for
//     (default "default").
//   - mock_seed: an integer (also accepted as the X-Usefullatency-Seed
//     request header; in the business dialect also as "seed"): the mock's
//     own seed. It alone pins the timings, the faults and the ids; the same
//     body with the same mock seed (and the same Config) gives the same
//     content and the same scheduled timings. Without one, the server
//     derives a seed from Config.Seed and the request's arrival number and
//     reports it in the X-Usefullatency-Seed response header.
//   - seed (the other dialects): the API's sampling seed. It pins
//     the content only, so requests sharing it still get their own timings.
//   - max_tokens, max_completion_tokens (the other dialects): the
//     answer stops after that many generated tokens (the smaller of the two
//     when both are given), counted as Usage counts them: one per text or
//     reasoning delta and per tool-argument fragment. The stream then ends
//     with finish_reason "length" (OpenAI, legacy completions) or
//     stop_reason "max_tokens" (Anthropic).
//   - faults: fault names (an array, or a comma-separated string); an
//     unknown name is a 400 naming it. See the Fault constants.
//   - http_error_status: the status of the http_error fault (400–599).
//   - reasoning: true makes the OpenAI and Anthropic dialects stream
//     reasoning (reasoning_content; a thinking block) in the first model
//     turn; so do OpenAI "reasoning_effort" (not "none") and Anthropic
//     "thinking": {"type": "enabled"}. The business and legacy completions
//     dialects stream none.
//
// The business dialect takes the question from "question"; the others from
// "messages", legacy completions from "prompt" (only its size matters: it
// adds to the input tokens). OpenAI "model", "stream" (absent or false: a
// whole answer) and "stream_options": {"include_usage": true} are honoured;
// a "stream" that is not a boolean is a 400.
// Errors are 400 with a one-line JSON body in the dialect's error shape.
//
// # Connections
//
// A started server closes a keep-alive connection idle for
// Config.IdleTimeoutMS (60 s) and one that has not sent its request
// headers within Config.ReadHeaderTimeoutMS (10 s), so idle clients cannot
// hold its connections. The tenant table holds only tenants with a request
// in flight.
//
// # Queue time
//
// Each tenant has Config.TenantSlots worker slots (a semaphore); a request
// holds one from dequeue to the end of its stream and waits in FIFO order
// for it, so queue time grows with a tenant's load. Then it waits, in one
// FIFO queue shared by all tenants, for one of the Config.ModelSlots model
// slots (100 by default, 0 for unlimited), which it also holds to the end
// of its stream: the assistant serves about ModelSlots ÷ mean service time
// requests per second before queue time grows for everyone. The queue time
// is the whole wait, from arrival until the request holds both slots (its
// dequeue). By default headers go out on arrival, heartbeats are sent while
// the request waits, and the first event carries queue_ms (in
// business_state for the business dialect, at the top level otherwise).
// With Config.HoldHeadersUntilDequeue the headers wait for the dequeue and
// carry "Server-Timing: queue;dur=<ms>" instead.
//
// # Schedules
//
// Each request is planned in full on arrival (a chain of stages, each with
// a latency drawn from its Dist, then rendered in the dialect) and sent
// event by event on one timer per stream. The schedule holds every event's
// intended offset from dequeue and its kind; Plan computes it without a
// server, to compare what the mock scheduled with what a client measured.
package mock
