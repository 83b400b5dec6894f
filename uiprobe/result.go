package uiprobe

import (
	"fmt"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/sse"
)

// The error codes of Result.ErrorCode; a predicate that fails gives
// sse.CodeCallback and a canceled watch sse.CodeCanceled.
const (
	// CodeTimeout: Spec.Timeout passed before the answer ended.
	CodeTimeout = "ui_timeout"
	// CodeLimit: the answer changed more than Spec.MaxChanges times, or its
	// text outgrew Spec.MaxText (or its log 16 times that).
	CodeLimit = "ui_limit"
	// CodePage: the page failed the watch: it was closed, navigated away
	// or reloaded, or the browser stopped answering.
	CodePage = "ui_page"
	// CodeAction: the action that should have caused the answer failed
	// (set by callers that run the action, such as usefulsse.watch).
	CodeAction = "ui_action"
	// CodeStopped: the watch was stopped before the answer ended.
	CodeStopped = "ui_stopped"
)

// Result is what a watch measured. Times are float milliseconds from the
// action; nil was never reached.
type Result struct {
	Timings Timings
	// Text is the answer's last visible text; State its last state.
	Text  string
	State map[string]any
	// UsefulReached reports whether the useful predicate held before the
	// answer ended.
	UsefulReached bool
	// Action is the moment the moments are counted from.
	Action Action
	// End says how the answer ended (done, quiet, timeout, limit,
	// stopped; empty when the page never reported) and EndedAt when, on
	// the wall clock.
	End     string
	EndedAt time.Time
	// Changes counts the answer's logged changes.
	Changes int
	// ErrorCode is empty on success, else one of the Code constants,
	// sse.CodeCallback or sse.CodeCanceled; Error explains it.
	ErrorCode, Error string
}

// Timings are the moments of an answer, in float milliseconds from the
// action; nil was never reached.
type Timings struct {
	FirstText, Useful, Complete *float64
}

// Action is the moment of the user's action.
type Action struct {
	// At is its wall-clock time (the page's timeOrigin plus its clock).
	At time.Time
	// Source is the input event's type ("click", "keydown", …), "given"
	// for Spec.ActionAt, or "start" when no trusted input event came (the
	// moments then count from Start).
	Source string
}

// Failed reports whether the watch ended with an error code.
func (r *Result) Failed() bool { return r.ErrorCode != "" }

// result computes the moments of the log as spec (with its defaults)
// defines them.
func (l *pageLog) result(spec *Spec) Result {
	action, source := l.action(spec)
	r := Result{Action: Action{At: l.wall(action), Source: source}, End: l.End.Reason,
		EndedAt: l.wall(l.End.T), Changes: len(l.Changes)}
	m := moments{spec: spec, action: action, r: &r}
	if paths := sse.JSONFieldPaths(spec.Useful); paths != nil {
		m.json = sse.NewJSONTracker(paths)
	}
	l.snapshots(m.visit)
	l.finish(&r, action)
	return r
}

// action returns the page moment of the action and its source.
func (l *pageLog) action(spec *Spec) (float64, string) {
	switch {
	case !spec.ActionAt.IsZero():
		return l.pageTime(spec.ActionAt), "given"
	case l.Action != nil:
		return l.Action.T, l.Action.Type
	}
	return l.Start, "start"
}

// finish sets the complete moment and the error code from the end.
func (l *pageLog) finish(r *Result, action float64) {
	switch l.End.Reason {
	case endDone, endQuiet:
		if l.End.T >= action {
			r.Timings.Complete = msPtr(l.End.T - action)
		}
	case endTimeout:
		r.setError(CodeTimeout, "the answer did not end within the watch's timeout")
	case endLimit:
		r.setError(CodeLimit, l.Error)
	case endStopped:
		r.setError(CodeStopped, "the watch was stopped before the answer ended")
	}
	r.UsefulReached = r.Timings.Useful != nil
}

// setError sets the error code and message, unless one is set.
func (r *Result) setError(code, msg string) {
	if r.ErrorCode == "" {
		r.ErrorCode, r.Error = code, msg
	}
}

// moments walks the snapshots of an answer and records its moments.
type moments struct {
	spec      *Spec
	action    float64
	r         *Result
	json      *sse.JSONTracker
	firstText bool
	usefulOff bool // reached, or its predicate failed
}

// visit takes one snapshot; snapshots before the action set the text and
// state but no moment.
func (m *moments) visit(s *snapshot) bool {
	m.r.Text, m.r.State = s.text, s.state
	m.feedJSON(s)
	if s.t < m.action {
		return true
	}
	elapsed := s.t - m.action
	if !m.firstText && strings.TrimSpace(s.text) != "" {
		m.firstText = true
		m.r.Timings.FirstText = msPtr(elapsed)
	}
	if !m.usefulOff {
		m.evalUseful(s, elapsed)
	}
	return true
}

// feedJSON feeds the snapshot's text to the JSON tracker: what was
// appended, or the whole text into a new tracker when it was replaced.
func (m *moments) feedJSON(s *snapshot) {
	if m.json == nil {
		return
	}
	if s.replaced {
		m.json = sse.NewJSONTracker(sse.JSONFieldPaths(m.spec.Useful))
	}
	m.json.Write(s.appended)
}

// evalUseful evaluates the useful predicate on the snapshot.
func (m *moments) evalUseful(s *snapshot, elapsed float64) {
	ctx := &sse.PredicateContext{State: s.state, Text: s.text, ElapsedMS: elapsed, JSON: m.json, FirstText: m.firstText}
	ok, err := evalSafely(m.spec.Useful, ctx)
	if err != nil {
		m.usefulOff = true
		m.r.setError(sse.CodeCallback, (&sse.CallbackError{Name: "useful", Err: err}).Error())
		return
	}
	if ok {
		m.usefulOff = true
		m.r.Timings.Useful = msPtr(elapsed)
	}
}

// evalSafely evaluates p, turning a panic (a function predicate runs user
// code) into an error.
func evalSafely(p sse.Predicate, c *sse.PredicateContext) (ok bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			ok, err = false, fmt.Errorf("panic: %v", v)
		}
	}()
	return p.Eval(c)
}

// msPtr returns a pointer to v.
func msPtr(v float64) *float64 { return &v }
