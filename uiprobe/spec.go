package uiprobe

import (
	"errors"
	"fmt"
	"time"

	"github.com/usefullatency/usefullatency/sse"
)

// The defaults of a Spec's zero fields.
const (
	// DefaultQuiet is how long an answer without a done marker must stay
	// unchanged, after its first visible text, to count as ended.
	DefaultQuiet = time.Second
	// DefaultTimeout bounds a watch, from Start to the end of the answer.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxChanges is how many changes of the answer a watch logs.
	DefaultMaxChanges = 5000
	// DefaultMaxText is the longest visible text of an answer, in
	// characters (UTF-16 code units, as the page counts them): 1 Mi.
	DefaultMaxText = 1 << 20
)

// logFactor bounds the characters a watch's whole log may hold: logFactor
// times MaxText (texts that do not extend the previous one are logged
// whole).
const logFactor = 16

// Spec is what a watch measures and when it stops. The zero value watches
// for the first visible text, ends the answer after DefaultQuiet without a
// change, and gives up after DefaultTimeout.
type Spec struct {
	// Useful is the predicate of the useful moment, evaluated on each
	// snapshot of the answer in order: sse.PredicateContext.Text is the
	// visible text, State the decoded state (see State), ElapsedMS the time
	// since the action, FirstText whether visible text appeared, Event
	// always nil (event predicates never hold). Nil means the first
	// visible text.
	Useful sse.Predicate
	// Done is a CSS selector marking the end of the answer: the answer
	// element matches it (e.g. "[data-done]") or contains a match. Empty:
	// the answer ends by the Quiet rule.
	Done string
	// Quiet ends the answer when it has not changed for this long after
	// its first visible text; complete is then its last change. Zero means
	// DefaultQuiet without Done and no quiet rule with Done. Must not be
	// negative.
	Quiet time.Duration
	// Timeout bounds the watch from Start; reaching it ends the answer
	// with error code ui_timeout (the moments reached still count). Zero
	// means DefaultTimeout. Must not be negative.
	Timeout time.Duration
	// State is a CSS selector of a JSON island inside the answer element,
	// e.g. `script[type="application/json"]`: its text, decoded as a JSON
	// object, is the business state of each snapshot. Empty: no state
	// unless StateAttribute is set.
	State string
	// StateAttribute names an attribute of the answer element holding the
	// state as a JSON object, e.g. "data-state". At most one of State and
	// StateAttribute may be set.
	StateAttribute string
	// ActionAt is the wall-clock time of the user's action, when the
	// caller knows it. Zero: the action is the first trusted input event
	// (pointerdown, mousedown, touchstart, click, Enter keydown, submit)
	// dispatched in the page after Start, at its own timeStamp; without
	// one, Start itself.
	ActionAt time.Time
	// MaxChanges is how many changes of the answer the watch logs before
	// it ends with error code ui_limit. Zero means DefaultMaxChanges.
	MaxChanges int
	// MaxText is the longest visible text the answer may show before the
	// watch ends with error code ui_limit, in characters. Zero means
	// DefaultMaxText.
	MaxText int
}

// errSpec prefixes every problem of a Spec.
var errSpec = errors.New("uiprobe: invalid watch")

// Validate returns every problem of s and selector at once (joined), or
// nil.
func (s *Spec) Validate(selector string) error {
	var errs []error
	if selector == "" {
		errs = append(errs, fmt.Errorf("%w: selector is empty; want the CSS selector of the answer element", errSpec))
	}
	if s.Quiet < 0 {
		errs = append(errs, fmt.Errorf("%w: quiet %v is negative", errSpec, s.Quiet))
	}
	if s.Timeout < 0 {
		errs = append(errs, fmt.Errorf("%w: timeout %v is negative", errSpec, s.Timeout))
	}
	if s.MaxChanges < 0 || s.MaxText < 0 {
		errs = append(errs, fmt.Errorf("%w: maxChanges %d and maxText %d must not be negative", errSpec, s.MaxChanges, s.MaxText))
	}
	if s.State != "" && s.StateAttribute != "" {
		errs = append(errs, fmt.Errorf("%w: state %q and stateAttribute %q are both set; choose one", errSpec, s.State, s.StateAttribute))
	}
	return errors.Join(errs...)
}

// withDefaults returns s with its zero fields filled.
func (s Spec) withDefaults() Spec {
	if s.Quiet == 0 && s.Done == "" {
		s.Quiet = DefaultQuiet
	}
	if s.Timeout == 0 {
		s.Timeout = DefaultTimeout
	}
	if s.MaxChanges == 0 {
		s.MaxChanges = DefaultMaxChanges
	}
	if s.MaxText == 0 {
		s.MaxText = DefaultMaxText
	}
	if s.Useful == nil {
		s.Useful = sse.DefaultUseful(sse.DialectRaw)
	}
	return s
}

// recorderOptions are the options of recorder.js, as it reads them.
type recorderOptions struct {
	Key            string  `json:"key"`
	Selector       string  `json:"selector"`
	Done           string  `json:"done"`
	State          string  `json:"state"`
	StateAttribute string  `json:"stateAttribute"`
	QuietMS        float64 `json:"quietMS"`
	TimeoutMS      float64 `json:"timeoutMS"`
	MaxChanges     int     `json:"maxChanges"`
	MaxText        int     `json:"maxText"`
	MaxLog         int     `json:"maxLog"`
}

// recorderOptions returns the recorder's options for a watch of selector
// stored under key; s has its defaults.
func (s *Spec) recorderOptions(key, selector string) recorderOptions {
	return recorderOptions{
		Key: key, Selector: selector, Done: s.Done, State: s.State, StateAttribute: s.StateAttribute,
		QuietMS: ms(s.Quiet), TimeoutMS: ms(s.Timeout),
		MaxChanges: s.MaxChanges, MaxText: s.MaxText, MaxLog: logFactor * s.MaxText,
	}
}

// ms returns d in float milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
