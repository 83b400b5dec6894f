// Package sse is the streaming probe of usefullatency: it sends one HTTP
// request, reads the Server-Sent Events response, classifies every event,
// and measures the moments a user experiences — first visible text, first
// useful answer, completion — next to the server's own queue time. It knows
// nothing of JavaScript, metrics or summaries; the k6/x/usefulsse module
// turns its Result into samples.
//
// # Reading
//
// The wire is parsed by github.com/tmaxmax/go-sse (WHATWG rules: UTF-8 BOM,
// LF/CR/CRLF line ends, events up to Request.MaxEventSize). go-sse drops
// comment lines, so a small reader between the body and the parser watches
// line starts for ':' as bytes pass through and reports each comment line
// as a heartbeat, in stream order, without parsing anything twice.
//
// Every event is stamped with the time since the request was sent, on the
// monotonic clock, at the moment the read returning the bytes that complete
// it came back from the network. When the request runs callbacks (OnEvent,
// function predicates) the body is read on a goroutine of its own, so a
// slow callback does not delay the stamps of bytes arriving meanwhile.
//
// On Linux, plain-HTTP/1.1 requests are read by one reactor for the whole
// process (package sse/internal/reactor, reached through
// reactortransport.go): an epoll set parked in Go's network poller reads
// each connection once it has bytes, stamps them with the kernel's receive
// time, and resumes the exchange's coroutine, in which net/http's response
// parser and the stream reader run unchanged. A request with callbacks is
// parsed by its caller from the stamped chunks the reactor hands it. Other
// requests go through net/http.
//
// # Event kinds
//
// Each event is exactly one Kind: heartbeat, empty, text, reasoning, tool,
// state, done, error or invalid. Comment lines and events of SSE type ping,
// heartbeat or keepalive are heartbeats, and events of type error are
// stream errors, in every dialect. An event that adds only whitespace is
// empty; its whitespace still joins the text. Unparseable data in a JSON
// dialect is an invalid event and the stream goes on. When an event carries
// several things, the kind follows the precedence error, text, tool,
// reasoning, state, empty.
//
// # Dialects
//
//	openai     choices[index 0].delta.content (and refusal, and legacy
//	           choices[].text) is visible text; delta.reasoning_content and
//	           delta.reasoning are reasoning; delta.tool_calls are tool
//	           deltas, arguments concatenated per index; a usage member
//	           (prompt_tokens, completion_tokens, completion_tokens_details.
//	           reasoning_tokens) is state; {"error": …} is an error; data
//	           [DONE] is done. Role-only chunks, empty deltas and {} are empty.
//	anthropic  by the data's "type": message_start (usage input_tokens) and
//	           message_delta (cumulative usage output_tokens) are state;
//	           content_block_delta text_delta is text, thinking_delta
//	           reasoning, input_json_delta tool; content_block_start of a
//	           tool_use block is tool; ping is a heartbeat; message_stop is
//	           done; error is an error; other types (content_block_stop,
//	           signature_delta, unknown ones) are empty.
//	business   {"delta": "...", "business_state": {...}}: delta is visible
//	           text, business_state is deep-merged into Result.State (state);
//	           a non-null "error" member is an error; event type done, data
//	           [DONE] or "done": true is done; an event that only reports the
//	           queue time (queue_ms) is state.
//	raw        the data is the visible text; event type done or data [DONE]
//	           is done.
//
// # Auto-detection
//
// With DialectAuto (the default) the dialect is decided by the first event
// that says something decisive, and kept:
//
//  1. an Anthropic event type (message_start, message_delta, message_stop,
//     content_block_start, content_block_delta, content_block_stop), as the
//     SSE event name or the JSON "type" member → anthropic;
//  2. data "[DONE]", or a JSON object with "choices", or with "object"
//     starting with "chat.completion" or "text_completion" → openai;
//  3. a JSON object with "delta" or "business_state" → business;
//  4. non-empty data that is not JSON → raw.
//
// Heartbeats, empty data and other JSON objects ({}, {"queue_ms": 3},
// {"error": …}) do not decide; until the decision they are read by the
// business rules.
//
// # Timeline
//
// Result.Timings holds float milliseconds since the send (connection set-up
// included), nil when never reached:
//
//	schedule_lag  Request.ScheduledAt → send
//	connecting    the TCP connect of the connection the request opened;
//	              nil when it reused one
//	tls_handshaking
//	              the TLS handshake of that connection; nil when reused
//	              or plain
//	queue         the server's report (Server-Timing queue;dur=, else the
//	              queue_ms field of the first event carrying it among the
//	              events before the first text and the state events)
//	headers       response headers received
//	first_event   first event that is not a heartbeat (role-only chunks count)
//	first_text    first event adding non-whitespace visible text
//	useful        first event after which the useful predicate held
//	complete      terminal event (done), or the clean end of the body;
//	              nil when the request failed
//	max_gap       longest time between consecutive non-heartbeat events,
//	              from the first to the last (or to the clean end of body)
//
// The default useful predicate is, for business, {fields: ['decision',
// 'reason', 'next_step']} on the merged business state; for openai,
// anthropic and raw, the first visible text (useful equals first_text,
// since those streams carry no structured notion of an answer: set
// Request.Useful, e.g. {jsonFields: [...]}, to measure more); for auto, the
// default of the detected dialect.
//
// # Outcomes
//
// Every request ends in exactly one outcome. Success has ErrorCode "" (a
// callback returning ErrStop ends the stream as a success);
// otherwise ErrorCode is one of the codes below, Error says more, and the
// timings reached before the failure are kept (complete stays nil).
//
//	invalid_request  the request's settings are invalid (method, URL,
//	                 dialect, negative limits); nothing was sent
//	connect_error    DNS resolution failed or the connection was refused
//	                 or unreachable
//	blocked_host     the host is in the blockHostnames option
//	                 (ClientOptions.Dial refused it); nothing was sent
//	blocked_ip       every address of the host is in the blacklistIPs
//	                 option; nothing was sent
//	tls_error        TLS handshake or certificate verification failed
//	http_status      the status is not 2xx; Status is kept and Error holds
//	                 the first 4 KiB of the body
//	content_type     the response is not text/event-stream (nor an
//	                 AcceptContentTypes type); Error names the type received
//	timeout          Request.Timeout (whole exchange) elapsed
//	idle_timeout     no byte arrived for Request.IdleTimeout after the headers
//	reset            the connection was closed or reset before the stream
//	                 ended cleanly (truncated chunked body, RST, HTTP/2
//	                 stream reset, peer closed before the headers)
//	protocol_error   the response was malformed or its Content-Encoding
//	                 could not be decoded
//	event_too_large  an event exceeded Request.MaxEventSize
//	response_too_large
//	                 the headers exceeded Request.MaxHeaderSize, the
//	                 decoded body Request.MaxResponseSize, or the body
//	                 decoded to more than 100 times its encoded size past
//	                 its first MiB (a compression bomb); timings, events
//	                 and text read before are kept
//	redirect_error   a redirect was refused: more than
//	                 Request.MaxRedirects, https to http without
//	                 Request.AllowInsecureRedirect, or a Location that is
//	                 not an http(s) URL; Status is the redirect's
//	stream_error     the stream reported an error (OpenAI {"error": …},
//	                 Anthropic error event, event type error)
//	callback_error   Request.OnOpen, Request.OnEvent or a function
//	                 predicate returned an error or panicked; Error names
//	                 the callback (onOpen, onEvent, useful, marks.<name>)
//	canceled         the caller's context ended (the iteration was
//	                 interrupted)
//	internal_error   a bug in this package (recovered panic)
package sse
