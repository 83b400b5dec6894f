package chromium

import (
	"context"
	"errors"
	"time"
)

// actions are what a script does to the element of a Locator or an
// Element. Each waits first until the element is ready, as k6 does: an
// action that points (click, hover, check) waits until it is attached,
// visible, enabled, stable and reached by the pointer at its point (it is
// scrolled into view); fill waits until it is also editable; the reads
// wait until it is attached. A wait ends with ctx, with a *WaitError.
type actions struct{ s subject }

// Point is a position in CSS pixels.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Box is an element's bounding box in CSS pixels, from the top-left corner
// of the document.
type Box struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// ClickOptions are how an element is clicked.
type ClickOptions struct {
	// Button is "left" (the default), "right" or "middle".
	Button string
	// ClickCount is the number of clicks; 0 is 1.
	ClickCount int
	// Delay is the time between pressing and releasing the button.
	Delay time.Duration
	// Position is the point clicked, from the element's top-left corner;
	// nil is the centre of its box.
	Position *Point
	// Modifiers are keys held during the click: "Alt", "Control", "Meta",
	// "Shift".
	Modifiers []string
	// Force skips the checks of actionability but attachment.
	Force bool
	// Trial only waits for the element to be actionable.
	Trial bool
}

// OptionSpec picks an <option> of a <select> by its value, its label or its
// index: the first field set counts.
type OptionSpec struct {
	Value *string `json:"value,omitempty"`
	Label *string `json:"label,omitempty"`
	Index *int    `json:"index,omitempty"`
}

// point waits until the element is actionable and returns where to aim.
func (a actions) point(ctx context.Context, force bool, pos *Point) (Point, error) {
	state := "actionable"
	if force {
		state = "attached"
	}
	arg := map[string]any{"force": force}
	if pos != nil {
		arg["position"] = pos
	}
	obj, err := runEngine(ctx, a.s, request{Op: "point", State: state, Arg: arg}, true)
	if err != nil {
		return Point{}, err
	}
	var pt Point
	return pt, decode(obj, &pt)
}

// Click clicks the element with the mouse, at the centre of its box.
func (a actions) Click(ctx context.Context, o ClickOptions) error {
	pt, err := a.point(ctx, o.Force, o.Position)
	if err != nil || o.Trial {
		return err
	}
	return a.s.page().Mouse().Click(ctx, pt.X, pt.Y, o)
}

// Dblclick double-clicks the element.
func (a actions) Dblclick(ctx context.Context, o ClickOptions) error {
	o.ClickCount = 2
	return a.Click(ctx, o)
}

// Hover moves the mouse over the element.
func (a actions) Hover(ctx context.Context, o ClickOptions) error {
	pt, err := a.point(ctx, o.Force, o.Position)
	if err != nil || o.Trial {
		return err
	}
	return a.s.page().Mouse().Move(ctx, pt.X, pt.Y, 1)
}

// Fill replaces the text of an <input>, a <textarea> or a contenteditable
// element with value, as if the user pasted it: the element is focused,
// its content selected and value inserted (an empty value deletes the
// selection). An input of a date, time, colour or range gets value set
// directly.
func (a actions) Fill(ctx context.Context, value string, force bool) error {
	state := "editable"
	if force {
		state = "attached"
	}
	obj, err := runEngine(ctx, a.s, request{Op: "fill", State: state, Arg: value}, true)
	if err != nil {
		return err
	}
	var mode string
	if err := decode(obj, &mode); err != nil || mode == "done" {
		return err
	}
	kb := a.s.page().Keyboard()
	if value == "" {
		return kb.Press(ctx, "Delete", 0)
	}
	return kb.InsertText(ctx, value)
}

// Clear empties an <input>, a <textarea> or a contenteditable element.
func (a actions) Clear(ctx context.Context, force bool) error { return a.Fill(ctx, "", force) }

// Focus focuses the element.
func (a actions) Focus(ctx context.Context) error {
	_, err := runEngine(ctx, a.s, request{Op: "focus", State: "attached"}, true)
	return err
}

// Blur removes the focus from the element.
func (a actions) Blur(ctx context.Context) error {
	_, err := runEngine(ctx, a.s, request{Op: "blur", State: "attached"}, true)
	return err
}

// Type focuses the element and types text key by key, with delay between
// the keys.
func (a actions) Type(ctx context.Context, text string, delay time.Duration) error {
	if err := a.Focus(ctx); err != nil {
		return err
	}
	return a.s.page().Keyboard().Type(ctx, text, delay)
}

// Press focuses the element and presses key (see Keyboard.Press).
func (a actions) Press(ctx context.Context, key string, delay time.Duration) error {
	if err := a.Focus(ctx); err != nil {
		return err
	}
	return a.s.page().Keyboard().Press(ctx, key, delay)
}

// SetChecked clicks a checkbox or a radio button when its checked state is
// not on, and fails when the click did not change it.
func (a actions) SetChecked(ctx context.Context, on bool, o ClickOptions) error {
	now, err := a.IsChecked(ctx)
	if err != nil || now == on {
		return err
	}
	if err := a.Click(ctx, o); err != nil || o.Trial {
		return err
	}
	if now, err = a.IsChecked(ctx); err == nil && now != on {
		err = errors.New("clicking the element did not change its checked state")
	}
	return err
}

// Check checks a checkbox or a radio button.
func (a actions) Check(ctx context.Context, o ClickOptions) error { return a.SetChecked(ctx, true, o) }

// Uncheck unchecks a checkbox.
func (a actions) Uncheck(ctx context.Context, o ClickOptions) error {
	return a.SetChecked(ctx, false, o)
}

// SelectOption selects the options of a <select> that specs pick, once the
// element is visible and enabled and one of them is there, fires its input
// and change events and returns the values selected.
func (a actions) SelectOption(ctx context.Context, specs []OptionSpec) ([]string, error) {
	obj, err := runEngine(ctx, a.s, request{Op: "select", State: "enabled", Arg: specs}, true)
	if err != nil {
		return nil, err
	}
	var values []string
	return values, decode(obj, &values)
}

// DispatchEvent fires a DOM event of type typ at the element, with init
// as its properties (bubbles, cancelable, clientX, …).
func (a actions) DispatchEvent(ctx context.Context, typ string, init map[string]any) error {
	_, err := runEngine(ctx, a.s, request{Op: "dispatch", State: "attached", Arg: map[string]any{"type": typ, "init": init}}, true)
	return err
}

// ScrollIntoView scrolls the element to the centre of the viewport.
func (a actions) ScrollIntoView(ctx context.Context) error {
	_, err := runEngine(ctx, a.s, request{Op: "scroll", State: "visible"}, true)
	return err
}

// read returns a property of the element once it is attached.
func read[T any](ctx context.Context, a actions, what string) (T, error) {
	var v T
	obj, err := runEngine(ctx, a.s, request{Op: "read", State: "attached", Arg: what}, true)
	if err != nil {
		return v, err
	}
	return v, decode(obj, &v)
}

// TextContent returns the element's textContent.
func (a actions) TextContent(ctx context.Context) (string, error) {
	return read[string](ctx, a, "textContent")
}

// InnerText returns the element's rendered text (innerText).
func (a actions) InnerText(ctx context.Context) (string, error) {
	return read[string](ctx, a, "innerText")
}

// InnerHTML returns the element's innerHTML.
func (a actions) InnerHTML(ctx context.Context) (string, error) {
	return read[string](ctx, a, "innerHTML")
}

// InputValue returns the value of an <input>, a <textarea> or a <select>.
func (a actions) InputValue(ctx context.Context) (string, error) {
	return read[string](ctx, a, "inputValue")
}

// Attribute returns the element's attribute name, and whether it has it.
func (a actions) Attribute(ctx context.Context, name string) (string, bool, error) {
	v, err := read[*string](ctx, a, "attribute:"+name)
	if err != nil || v == nil {
		return "", false, err
	}
	return *v, true, nil
}

// IsChecked reports whether a checkbox or a radio button is checked.
func (a actions) IsChecked(ctx context.Context) (bool, error) { return read[bool](ctx, a, "checked") }

// IsEnabled reports whether the element is enabled (not disabled, itself
// or through its fieldset).
func (a actions) IsEnabled(ctx context.Context) (bool, error) { return read[bool](ctx, a, "enabled") }

// IsEditable reports whether the element takes typed text (enabled and
// not read-only).
func (a actions) IsEditable(ctx context.Context) (bool, error) {
	return read[bool](ctx, a, "editable")
}

// BoundingBox returns the element's box.
func (a actions) BoundingBox(ctx context.Context) (Box, error) { return read[Box](ctx, a, "box") }

// IsVisible reports whether the element is there and visible now: a
// non-empty box and no visibility:hidden. It does not wait.
func (a actions) IsVisible(ctx context.Context) (bool, error) {
	obj, err := runEngine(ctx, a.s, request{Op: "visible", State: "none"}, true)
	if err != nil {
		return false, err
	}
	var v bool
	return v, decode(obj, &v)
}

// WaitFor waits until the element is in state: "attached", "detached",
// "visible" or "hidden".
func (a actions) WaitFor(ctx context.Context, state string) error {
	_, err := runEngine(ctx, a.s, request{Op: "visible", State: state}, true)
	return err
}
