package uiprobe

import (
	"encoding/json"
	"math"
	"strings"
	"time"
)

// pageLog is the recorder's report; every time is on the page's clock
// (performance.now(), milliseconds).
type pageLog struct {
	// Origin is the page's performance.timeOrigin, in Unix milliseconds.
	Origin float64 `json:"origin"`
	// Start is when the recorder was installed.
	Start float64 `json:"start"`
	// Action is the first trusted input event after Start; nil for none.
	Action *pageAction `json:"action"`
	// Changes are the answer's changes, in order.
	Changes []change `json:"changes"`
	// End is how and when the answer ended.
	End pageEnd `json:"end"`
	// Error explains an end by limit.
	Error string `json:"error"`
}

// pageAction is an input event: its timeStamp and type ("click").
type pageAction struct {
	T    float64 `json:"t"`
	Type string  `json:"type"`
}

// The reasons an answer ends, as the recorder reports them.
const (
	endDone    = "done"    // the done marker appeared
	endQuiet   = "quiet"   // no change for the quiet period
	endTimeout = "timeout" // Spec.Timeout passed
	endLimit   = "limit"   // the log outgrew a limit
	endStopped = "stopped" // Watch.Stop
)

// pageEnd is the end of an answer: T is the end moment (the done marker's
// change, the last change before quiet, or the timeout), At when the
// recorder reported it.
type pageEnd struct {
	T      float64 `json:"t"`
	Reason string  `json:"reason"`
	At     float64 `json:"at"`
}

// change is one logged change of the answer at T: its whole new visible
// text (Text), or what was appended to the previous one (Append), or
// neither when only the state changed; State is absent when unchanged,
// null when the state is gone, else a JSON string of the state's text.
type change struct {
	T      float64         `json:"t"`
	Text   *string         `json:"text"`
	Append *string         `json:"append"`
	State  json.RawMessage `json:"state"`
}

// wall returns the wall-clock time of the page moment t.
func (l *pageLog) wall(t float64) time.Time {
	return time.UnixMicro(int64(math.Round((l.Origin + t) * 1000)))
}

// pageTime returns the page moment of the wall-clock time w.
func (l *pageLog) pageTime(w time.Time) float64 {
	return float64(w.UnixMicro())/1000 - l.Origin
}

// snapshot is the answer as it was after a change.
type snapshot struct {
	t float64
	// text is the whole visible text; appended is its new part, or the
	// whole text when the change replaced it (replaced true).
	text, appended string
	replaced       bool
	// state is the decoded state, nil when there is none or it is not a
	// JSON object.
	state map[string]any
}

// snapshots calls fn with the answer after each change, in order, until fn
// returns false.
func (l *pageLog) snapshots(fn func(*snapshot) bool) {
	var text strings.Builder
	s := &snapshot{}
	for _, c := range l.Changes {
		s.t, s.appended, s.replaced = c.T, "", false
		switch {
		case c.Text != nil:
			text.Reset()
			text.WriteString(*c.Text)
			s.appended, s.replaced = *c.Text, true
		case c.Append != nil:
			text.WriteString(*c.Append)
			s.appended = *c.Append
		}
		s.text = text.String()
		if len(c.State) > 0 {
			s.state = decodeState(c.State)
		}
		if !fn(s) {
			return
		}
	}
}

// decodeState decodes a change's state: a JSON string holding a JSON
// object. Null, or text that is not a JSON object (an island being
// rewritten), is no state.
func decodeState(raw json.RawMessage) map[string]any {
	var text *string
	if json.Unmarshal(raw, &text) != nil || text == nil {
		return nil
	}
	var state map[string]any
	if json.Unmarshal([]byte(*text), &state) != nil {
		return nil
	}
	return state
}
