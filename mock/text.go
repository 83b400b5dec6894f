package mock

import (
	"math/rand/v2"
	"strconv"
)

// sentence is one sentence of an answer, with the business_state delta that
// becomes known when its last token is sent ("" for none) and the schedule
// mark it sets.
type sentence struct {
	text, state, mark string
}

// texts is the content of one request: what the assistant says and the
// states it reports. Everything is drawn from the content PRNG, so the same
// seed gives the same content.
type texts struct {
	intent    string // state after routing
	sources   string // state after retrieval
	handoff   string // state when the fallback starts
	order     string // state after order lookup
	orderID   string
	reasoning string
	// answer is the final answer: decision, reason, next step, closing.
	answer []sentence
	// early is the decision sent by the premature_commit fault.
	early sentence
	// third reports whether multi_tool calls a third tool.
	third   bool
	sku     string
	product string
	amount  string // e.g. "59.90" (EUR)
	// denied reports that the refund rules refuse the refund.
	denied bool
}

var products = [...]string{"headphones", "coffee machine", "running shoes", "phone case", "desk lamp", "backpack", "blender", "smart watch"}

// newTexts draws the content of a request of the given bucket.
func newTexts(r *rand.Rand, bucket string) *texts {
	t := &texts{
		orderID: "A" + strconv.Itoa(100000+r.IntN(900000)),
		sku:     "SKU-" + strconv.Itoa(10000+r.IntN(90000)),
	}
	t.product = products[r.IntN(len(products))]
	cents := 1990 + r.IntN(23000)
	t.amount = strconv.Itoa(cents/100) + "." + strconv.Itoa(cents%100/10) + strconv.Itoa(cents%10)
	t.order = `{"order":{"id":"` + t.orderID + `","status":"delivered","total":` + t.amount + `,"currency":"EUR"}}`
	t.reasoning = "The customer asks about order " + t.orderID + " and a " + t.product +
		". I must check the refund rules before I promise anything."
	switch bucket {
	case BucketQA:
		t.qa(r)
	case BucketRetrieval:
		t.retrieval(r)
	case BucketSingleTool:
		t.singleTool(r)
	case BucketMultiTool:
		t.multiTool(r)
	case BucketTimeoutRecovery:
		t.timeoutRecovery(r)
	}
	t.early = t.answer[0]
	if bucket == BucketTimeoutRecovery {
		t.early = t.approved()[0]
	}
	return t
}

// qa is a return-policy question answered from the model's knowledge.
func (t *texts) qa(r *rand.Rand) {
	t.intent = `{"intent":"return_policy"}`
	t.reasoning = "The customer asks whether a " + t.product + " can be returned. The return policy answers this directly."
	days := [...]string{"14", "30"}[r.IntN(2)]
	t.answer = []sentence{
		{"Yes, you can return the " + t.product + " within " + days + " days.", `{"decision":"return_allowed"}`, "decision"},
		{" Unused items in original packaging qualify.", `{"reason":"return_policy_` + days + `_days"}`, ""},
		{" Next step: open Orders and click Return.", `{"next_step":"open_orders_click_return"}`, "useful"},
		{" The refund reaches your card within 5 to 7 business days.", "", ""},
	}
}

// retrieval is a warranty question answered from knowledge-base articles.
func (t *texts) retrieval(r *rand.Rand) {
	t.intent = `{"intent":"warranty_question"}`
	kb := strconv.Itoa(1000 + r.IntN(100))
	t.sources = `{"sources":[{"id":"kb-` + kb + `","title":"Warranty and repairs"},{"id":"kb-1007","title":"Returns policy"}],"retrieval":{"status":"ok","documents":2}}`
	t.answer = []sentence{
		{"Your " + t.product + " has a 24-month manufacturer warranty.", `{"decision":"warranty_covered"}`, "decision"},
		{" Defects under normal use are repaired or replaced for free.", `{"reason":"warranty_article_kb_` + kb + `"}`, ""},
		{" Next step: open Support, choose Warranty claim and attach a photo.", `{"next_step":"file_warranty_claim"}`, "useful"},
		{" Most claims are answered within two business days.", "", ""},
	}
}

// singleTool is a refund request the refund rules approve (85 %) or deny.
func (t *texts) singleTool(r *rand.Rand) {
	t.intent = `{"intent":"refund_request"}`
	if r.IntN(100) < 85 {
		t.answer = t.approved()
		return
	}
	t.denied = true
	days := strconv.Itoa(31 + r.IntN(60))
	t.answer = []sentence{
		{"Sorry, order " + t.orderID + " can no longer be refunded.", `{"decision":"refund_denied"}`, "decision"},
		{" It arrived " + days + " days ago, past the 30-day window.", `{"reason":"outside_return_window"}`, ""},
		{" Next step: request a free warranty repair.", `{"next_step":"request_warranty_repair"}`, "useful"},
		{" We collect the " + t.product + " at your door, free of charge.", "", ""},
	}
}

// multiTool is a lost parcel: refund rules and shipping status, and half
// of the time a stock check for a replacement.
func (t *texts) multiTool(r *rand.Rand) {
	t.intent = `{"intent":"lost_parcel_refund"}`
	t.third = r.IntN(2) == 1
	decision := "Your refund of €" + t.amount + " for order " + t.orderID + " is approved."
	if t.third {
		decision = "Your refund of €" + t.amount + " for order " + t.orderID + " is approved, and a replacement " + t.product + " is in stock."
	}
	t.answer = []sentence{
		{decision, `{"decision":"refund_approved"` + t.refund() + `}`, "decision"},
		{" The carrier confirms the parcel was lost in transit.", `{"reason":"lost_in_transit"}`, ""},
		{" Next step: click Confirm refund, or Send replacement for a new one.", `{"next_step":"confirm_refund_or_replacement"}`, "useful"},
		{" The money is back on your card within 5 business days.", "", ""},
	}
}

// timeoutRecovery is the canned fallback message after the refund-rule
// tool timed out, with the human hand-off.
func (t *texts) timeoutRecovery(r *rand.Rand) {
	t.intent = `{"intent":"refund_request"}`
	ticket := "HO-" + strconv.Itoa(10000+r.IntN(90000))
	t.handoff = `{"handoff":{"queue":"after_sales_agents","ticket":"` + ticket + `","eta_minutes":5}}`
	t.answer = []sentence{
		{"I couldn't check the refund rules for order " + t.orderID + " in time, so a colleague will take over.",
			`{"decision":"handoff"}`, "decision"},
		{" The refund rules service did not answer.", `{"reason":"refund_rules_timeout"}`, ""},
		{" Next step: stay in this chat, an agent joins within 5 minutes.", `{"next_step":"wait_for_agent"}`, "useful"},
		{" Your ticket number is " + ticket + ".", "", ""},
	}
}

// refund returns the refund member of a decision state, with its leading
// comma.
func (t *texts) refund() string {
	return `,"refund":{"amount":` + t.amount + `,"currency":"EUR"}`
}

// approved is the answer to an approved refund.
func (t *texts) approved() []sentence {
	return []sentence{
		{"Your refund of €" + t.amount + " for order " + t.orderID + " is approved.", `{"decision":"refund_approved"` + t.refund() + `}`, "decision"},
		{" The " + t.product + " arrived damaged, within 30 days.", `{"reason":"damaged_within_window"}`, ""},
		{" Next step: click Print return label.", `{"next_step":"print_return_label"}`, "useful"},
		{" The money is back on your card within 5 business days.", "", ""},
	}
}

// toolArgs returns the JSON arguments of a tool call.
func (t *texts) toolArgs(name string) string {
	switch name {
	case toolWarehouseStock:
		return `{"sku":"` + t.sku + `"}`
	case toolRefundRules:
		return `{"order_id":"` + t.orderID + `","reason":"damaged"}`
	}
	return `{"order_id":"` + t.orderID + `"}`
}

// The tools the assistant calls.
const (
	toolRefundRules    = "refund_rules"
	toolShippingStatus = "shipping_status"
	toolWarehouseStock = "warehouse_stock"
)

// toolResult returns the business_state delta of a tool that finished.
func (t *texts) toolResult(name string) string {
	switch name {
	case toolRefundRules:
		if t.denied {
			return `{"tools":{"refund_rules":{"status":"ok","eligible":false}},"verified":true}`
		}
		return `{"tools":{"refund_rules":{"status":"ok","eligible":true}},"verified":true}`
	case toolShippingStatus:
		return `{"tools":{"shipping_status":{"status":"ok","parcel":"lost_in_transit"}}}`
	}
	return `{"tools":{"` + name + `":{"status":"ok","in_stock":true}}}`
}

// tokens calls yield with each token of s: a token is a word with the space
// before it, so the tokens concatenate back to s. It allocates nothing.
func tokens(s string, yield func(tok string) bool) {
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i] == ' ' && s[i-1] != ' ' {
			if !yield(s[start:i]) {
				return
			}
			start = i
		}
	}
	if start < len(s) {
		yield(s[start:])
	}
}

// countTokens returns the number of tokens of s.
func countTokens(s string) int {
	n := 0
	tokens(s, func(string) bool { n++; return true })
	return n
}

// hexID returns n random lower-case hex digits.
func hexID(r *rand.Rand, n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[r.IntN(16)]
	}
	return string(b)
}
