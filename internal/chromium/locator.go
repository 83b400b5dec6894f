package chromium

import (
	"context"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/runtime"
)

// Step is one selector of a locator's chain, with the filters and the
// index applied to what it selects.
//
// A selector is CSS; or XPath when it starts with "/", "(/" or "..", or
// with "xpath="; or text with "text=" (a part of an element's text, in any
// case; quoted, the whole text) or when it is quoted. "css=" forces CSS,
// and "a >> b" selects b under the elements of a.
type Step struct {
	Selector   string      `json:"selector"`
	HasText    *TextFilter `json:"hasText,omitempty"`
	HasNotText *TextFilter `json:"hasNotText,omitempty"`
	// Nth keeps only the element at this index; a negative one counts
	// from the end (-1 is the last).
	Nth *int `json:"nth,omitempty"`
}

// TextFilter matches an element's text content: a part of it, in any case
// and with whitespace collapsed, or a regular expression (Regexp, with
// JavaScript's syntax and Flags).
type TextFilter struct {
	Text   string `json:"text"`
	Regexp bool   `json:"regexp,omitempty"`
	Flags  string `json:"flags,omitempty"`
}

// LocatorOptions filter the elements of a locator (k6's hasText and
// hasNotText).
type LocatorOptions struct {
	HasText, HasNotText *TextFilter
}

// Locator finds its element anew at every action, so that it survives
// navigations and re-renders. It is strict unless Strict(false) made it
// loose: an action on a selector that matches several elements fails.
// Actions wait until their element is ready (see Click) or ctx ends.
type Locator struct {
	actions
	p      *Page
	steps  []Step
	strict bool
}

var _ subject = (*Locator)(nil)

// Locator returns a strict locator of selector on the page.
func (p *Page) Locator(selector string, o LocatorOptions) *Locator {
	l := &Locator{p: p, strict: true}
	l.steps = []Step{{Selector: selector, HasText: o.HasText, HasNotText: o.HasNotText}}
	l.actions = actions{l}
	return l
}

// with returns a copy of the locator whose last step f changed.
func (l *Locator) with(f func(*Step)) *Locator {
	out := &Locator{p: l.p, strict: l.strict, steps: append([]Step(nil), l.steps...)}
	f(&out.steps[len(out.steps)-1])
	out.actions = actions{out}
	return out
}

// Locator returns a locator of selector under this locator's elements.
func (l *Locator) Locator(selector string, o LocatorOptions) *Locator {
	out := l.with(func(*Step) {})
	out.steps = append(out.steps, Step{Selector: selector, HasText: o.HasText, HasNotText: o.HasNotText})
	return out
}

// Nth returns a locator of the i-th element (from 0; -1 is the last).
func (l *Locator) Nth(i int) *Locator { return l.with(func(s *Step) { s.Nth = &i }) }

// First returns a locator of the first element.
func (l *Locator) First() *Locator { return l.Nth(0) }

// Last returns a locator of the last element.
func (l *Locator) Last() *Locator { return l.Nth(-1) }

// Strict returns a copy of the locator that is strict or not.
func (l *Locator) Strict(on bool) *Locator {
	out := l.with(func(*Step) {})
	out.strict = on
	return out
}

// Selector returns the locator's selectors joined by " >> ".
func (l *Locator) Selector() string {
	parts := make([]string, len(l.steps))
	for i, s := range l.steps {
		parts[i] = s.Selector
	}
	return strings.Join(parts, " >> ")
}

// Page returns the page the locator belongs to.
func (l *Locator) Page() *Page { return l.p }

// Count returns how many elements the locator matches now.
func (l *Locator) Count(ctx context.Context) (int, error) {
	obj, err := runEngine(ctx, l, request{Op: "count", State: "none"}, true)
	if err != nil {
		return 0, err
	}
	var n int
	return n, decode(obj, &n)
}

// All returns a locator of each element the locator matches now.
func (l *Locator) All(ctx context.Context) ([]*Locator, error) {
	n, err := l.Count(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*Locator, n)
	for i := range out {
		out[i] = l.Nth(i)
	}
	return out, nil
}

// Element returns a handle of the locator's element once it is in state
// ("attached", "visible"; "none" does not wait); nil when there is none,
// or for the states "detached" and "hidden".
func (l *Locator) Element(ctx context.Context, state string) (*Element, error) {
	obj, err := runEngine(ctx, l, request{Op: "element", State: state}, false)
	if err != nil {
		return nil, err
	}
	return l.p.element(obj), nil
}

// Elements returns a handle of each element the locator matches now.
func (l *Locator) Elements(ctx context.Context) ([]*Element, error) {
	obj, err := runEngine(ctx, l, request{Op: "elements", State: "none"}, false)
	if err != nil {
		return nil, err
	}
	items, err := l.p.items(ctx, obj)
	if err != nil {
		return nil, err
	}
	out := make([]*Element, 0, len(items))
	for _, it := range items {
		if el := l.p.element(it); el != nil {
			out = append(out, el)
		}
	}
	return out, nil
}

func (l *Locator) page() *Page { return l.p }

func (l *Locator) prepare(req *request) {
	req.Steps, req.Strict, req.Name = l.steps, l.strict, l.Selector()
}

func (l *Locator) remote() *runtime.RemoteObject { return nil }

func (l *Locator) name() string { return strconv.Quote(l.Selector()) }
