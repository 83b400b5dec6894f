package mock

import (
	"math/rand/v2"
	"time"
)

// op is what one step of the business chain does on the stream.
type op uint8

const (
	opStart      op = iota // the first event (role-only chunk, message_start, empty delta)
	opState                // a business_state delta (business dialect only)
	opText                 // a visible text token
	opReasoning            // a reasoning token (OpenAI and Anthropic only)
	opToolStart            // a tool call starts (OpenAI and Anthropic only)
	opToolArgs             // a fragment of a tool call's JSON arguments
	opDone                 // the stream completes
	opDisconnect           // the connection is cut (disconnect fault)
)

// step is one dialect-neutral step of a request's timeline.
type step struct {
	at time.Duration
	op op
	// text is the token, argument fragment, state JSON or tool name.
	text string
	// tool is the tool call's index within the request; id its identifier.
	tool int
	id   string
	// quiet forbids heartbeats in the gap before the step (stall fault).
	quiet bool
	// malformed cuts the event's JSON (malformed_json fault).
	malformed bool
}

// usage counts the tokens a request streams.
type usage struct {
	output, reasoning int
}

// chain builds the timeline of one request: every stage of its bucket with
// sampled latencies, the tokens it streams and the faults it suffers. Times
// are offsets from the moment the request left its tenant queue.
type chain struct {
	cfg    *Config
	b      *Bucket
	faults faultSet
	// timing draws latencies, fault draws fault positions; content (in
	// texts) is drawn separately, so a fault does not change the content.
	timing, fault *rand.Rand
	txt           *texts
	t             time.Duration
	steps         []step
	marks         map[string]time.Duration
	use           usage
	tools         int
	stopped       bool // after a disconnect, or max_tokens reached
	maxTokens     int  // the request's output token limit, 0 for none
	truncated     bool // max_tokens was reached at truncatedAt
	truncatedAt   time.Duration
	primed        bool // a model turn's first token is due now
	reasoning     bool // reasoning still to stream in the next model turn
	quiet         bool // the next step follows a stall
	// answer-token positions of the disconnect, stall and malformed_json
	// faults; -1 for none.
	answered, disconnectAt, stallAt, malformedAt int
}

// emit appends a step at the current time, unless the stream was cut.
func (c *chain) emit(s step) {
	if c.stopped {
		return
	}
	s.at, s.quiet, c.quiet = c.t, c.quiet, false
	c.steps = append(c.steps, s)
}

// mark records the first time the named milestone is reached.
func (c *chain) mark(name string) {
	if _, ok := c.marks[name]; !ok && !c.stopped && name != "" {
		c.marks[name] = c.t
	}
}

// wait spends a sampled stage latency.
func (c *chain) wait(d Dist) { c.t += d.Sample(c.timing) }

// state emits a business_state delta and sets a mark.
func (c *chain) state(js, mark string) {
	c.emit(step{op: opState, text: js})
	c.mark(mark)
}

// gap spends the time before the next token: nothing right after a model
// turn started (its first-token latency was paid), else one inter-token gap.
func (c *chain) gap(r *rand.Rand) {
	if c.primed {
		c.primed = false
		return
	}
	c.t += c.cfg.InterToken.Sample(r)
}

// turn starts a model turn: the first-token latency, then the reasoning if
// the request asked for it and none was streamed yet.
func (c *chain) turn() {
	c.wait(c.b.FirstToken)
	c.primed = true
	if !c.reasoning {
		return
	}
	c.reasoning = false
	tokens(c.txt.reasoning, func(tok string) bool {
		c.gap(c.timing)
		c.emit(step{op: opReasoning, text: tok})
		c.count(&c.use.reasoning)
		return !c.stopped
	})
}

// call streams a tool call (name, then its arguments in fragments of about
// one token) and returns its index.
func (c *chain) call(name string, ids *rand.Rand) int {
	i := c.tools
	c.tools++
	c.gap(c.timing)
	c.emit(step{op: opToolStart, text: name, tool: i, id: hexID(ids, 24)})
	c.state(`{"tools":{"`+name+`":{"status":"running"}}}`, "")
	args := c.txt.toolArgs(name)
	for len(args) > 0 {
		n := min(len(args), 8)
		c.gap(c.timing)
		c.emit(step{op: opToolArgs, text: args[:n], tool: i})
		c.count(&c.use.output)
		args = args[n:]
	}
	return i
}

// count counts a generated token in n (output or reasoning) unless the
// stream was cut; the token that reaches the request's max_tokens
// (output and reasoning tokens together) truncates the stream: nothing
// after it is sent but the terminal event.
func (c *chain) count(n *int) {
	if c.stopped {
		return
	}
	*n++
	if c.maxTokens > 0 && c.use.output+c.use.reasoning >= c.maxTokens {
		c.stopped, c.truncated, c.truncatedAt = true, true, c.t
	}
}

// runTools runs the named tools concurrently: each reports its result when
// it finishes, and the chain goes on when the slowest is done.
func (c *chain) runTools(names ...string) {
	start := c.t
	ends := make([]time.Duration, len(names))
	for i := range names {
		ends[i] = start + c.b.Tool.Sample(c.timing)
	}
	for done := 0; done < len(names); done++ {
		k := 0
		for i := range ends {
			if ends[i] < ends[k] {
				k = i
			}
		}
		c.t = ends[k]
		ends[k] = 1<<63 - 1
		mark := ""
		if names[k] == toolRefundRules {
			mark = "verified"
		}
		c.state(c.txt.toolResult(names[k]), mark)
	}
}

// say streams sentences token by token, each sentence's state after its last
// token. In the answer (answer true) the disconnect, stall and malformed_json
// faults strike at their drawn token positions.
func (c *chain) say(sents []sentence, answer bool, r *rand.Rand) {
	for _, s := range sents {
		tokens(s.text, func(tok string) bool {
			c.gap(r)
			st := step{op: opText, text: tok}
			if answer {
				c.fault1(&st)
				c.answered++
			}
			c.emit(st)
			c.mark("first_text")
			c.count(&c.use.output)
			return !c.stopped
		})
		if s.state != "" {
			c.state(s.state, s.mark)
		}
	}
}

// fault1 applies the answer-token faults to the next answer token.
func (c *chain) fault1(st *step) {
	switch c.answered {
	case c.disconnectAt:
		c.emit(step{op: opDisconnect})
		c.stopped = true
	case c.stallAt:
		c.t += msDuration(c.cfg.StallMS)
		c.quiet = true
	}
	if c.answered == c.malformedAt {
		st.malformed = true
	}
}

// answer streams the final answer (or the fallback message), drawing the
// positions of the answer-token faults first.
func (c *chain) answer() {
	n := 0
	for _, s := range c.txt.answer {
		n += countTokens(s.text)
	}
	pick := func(name string) int {
		at := int(float64(n) * (0.3 + 0.4*c.fault.Float64()))
		if !c.faults.has(name) {
			return -1
		}
		return at
	}
	c.disconnectAt, c.stallAt, c.malformedAt = pick(FaultDisconnect), pick(FaultStall), pick(FaultMalformedJSON)
	c.say(c.txt.answer, true, c.timing)
}

// lookup runs the order lookup and the permission check.
func (c *chain) lookup() {
	c.wait(c.b.OrderLookup)
	c.state(c.txt.order, "")
	c.wait(c.b.Permission)
	c.state(`{"permission":{"status":"ok"}}`, "")
}

// run builds the whole timeline of a request of the given bucket.
func (c *chain) run(bucket string, ids *rand.Rand) {
	c.emit(step{op: opStart})
	c.mark("first_event")
	c.wait(c.b.Routing)
	c.state(c.txt.intent, "")
	if c.faults.has(FaultPrematureCommit) {
		c.say([]sentence{c.txt.early}, false, c.fault)
	}
	switch bucket {
	case BucketQA:
		c.turn()
	case BucketRetrieval:
		c.wait(c.b.Retrieval)
		c.state(c.txt.sources, "")
		c.turn()
	case BucketSingleTool:
		c.lookup()
		c.turn()
		c.call(toolRefundRules, ids)
		c.runTools(toolRefundRules)
		c.turn()
	case BucketMultiTool:
		c.lookup()
		c.turn()
		c.call(toolRefundRules, ids)
		c.call(toolShippingStatus, ids)
		c.runTools(toolRefundRules, toolShippingStatus)
		if c.txt.third {
			c.turn()
			c.call(toolWarehouseStock, ids)
			c.runTools(toolWarehouseStock)
		}
		c.turn()
	case BucketTimeoutRecovery:
		c.recover(ids)
	}
	c.answer()
	if c.truncated {
		c.t, c.stopped = c.truncatedAt, false
		c.emit(step{op: opDone})
		c.mark("complete")
		return
	}
	if c.stopped {
		return
	}
	c.wait(c.b.Safety)
	c.state(`{"safety":{"status":"passed"}}`, "")
	c.emit(step{op: opDone})
	c.mark("complete")
}

// recover is the tool stage of timeout_recovery: the refund-rule tool times
// out, and after the fallback delay the canned fallback message starts
// (streamed without a model turn).
func (c *chain) recover(ids *rand.Rand) {
	c.lookup()
	c.turn()
	c.call(toolRefundRules, ids)
	timeout := c.cfg.ToolTimeoutMS
	c.t += msDuration(timeout)
	c.state(`{"tools":{"refund_rules":{"status":"timeout","after_ms":`+formatMS(timeout)+`}}}`, "tool_timeout")
	fallback := c.cfg.Fallback
	if c.faults.has(FaultSlowFallback) {
		fallback = c.cfg.SlowFallback
	}
	c.wait(fallback)
	c.state(c.txt.handoff, "handoff")
	c.primed = true
}
