package chromium

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// The modifier bits of the protocol's input events.
const (
	modAlt   int64 = 1
	modCtrl  int64 = 2
	modMeta  int64 = 4
	modShift int64 = 8
)

// modifierBits maps the names of the modifier keys to their bits.
var modifierBits = map[string]int64{
	"Alt": modAlt, "Control": modCtrl, "Meta": modMeta, "Shift": modShift, "ControlOrMeta": modCtrl,
}

// keyboard is a page's keyboard state: the modifiers held down.
type keyboard struct {
	mu        sync.Mutex
	modifiers int64
}

// mouse is a page's mouse state: where it is and which buttons are down.
type mouse struct {
	mu      sync.Mutex
	x, y    float64
	buttons int64
}

// Keyboard types on a page, as k6's page.keyboard.
type Keyboard struct{ p *Page }

// Mouse points and clicks on a page, as k6's page.mouse.
type Mouse struct{ p *Page }

// Keyboard returns the page's keyboard.
func (p *Page) Keyboard() *Keyboard { return &Keyboard{p} }

// Mouse returns the page's mouse.
func (p *Page) Mouse() *Mouse { return &Mouse{p} }

// keyDef describes a key for the protocol's key events.
type keyDef struct {
	key, code, text string
	keyCode         int64
	shift           bool
}

// keysByName indexes chromedp's key table by key value ("Enter", "a",
// "ArrowLeft") and by code ("KeyA", "Space", "Digit1").
var keysByName = func() map[string]keyDef {
	m := map[string]keyDef{}
	for r, k := range kb.Keys {
		def := keyDef{key: k.Key, code: k.Code, keyCode: k.Windows, shift: k.Shift}
		if k.Print {
			def.text = k.Text
		}
		if _, ok := m[k.Key]; !ok || string(r) == k.Key {
			m[k.Key] = def
		}
		if _, ok := m[k.Code]; !ok && k.Code != "" && !k.Shift {
			m[k.Code] = def
		}
	}
	m["ControlOrMeta"] = m["Control"]
	return m
}()

// lookupKey returns the definition of a key named as k6 names it: a key
// value or a code of the US layout, or a single character.
func lookupKey(name string) (keyDef, error) {
	if def, ok := keysByName[name]; ok {
		return def, nil
	}
	if utf8.RuneCountInString(name) == 1 {
		return keyDef{key: name, text: name}, nil
	}
	return keyDef{}, fmt.Errorf("unknown key %q", name)
}

// Down presses key and holds it: a modifier (Shift, Control, Alt, Meta)
// then applies to the following events; a printable key types its text
// unless Control, Alt or Meta is held.
func (k *Keyboard) Down(ctx context.Context, key string) error {
	def, err := lookupKey(key)
	if err != nil {
		return err
	}
	st := &k.p.st.keyboard
	st.mu.Lock()
	st.modifiers |= modifierBits[def.key]
	mods := st.modifiers
	st.mu.Unlock()
	return k.dispatch(ctx, def, true, mods)
}

// Up releases key.
func (k *Keyboard) Up(ctx context.Context, key string) error {
	def, err := lookupKey(key)
	if err != nil {
		return err
	}
	st := &k.p.st.keyboard
	st.mu.Lock()
	st.modifiers &^= modifierBits[def.key]
	mods := st.modifiers
	st.mu.Unlock()
	return k.dispatch(ctx, def, false, mods)
}

// dispatch sends one key event.
func (k *Keyboard) dispatch(ctx context.Context, def keyDef, down bool, mods int64) error {
	ev := input.DispatchKeyEventParams{
		Type: input.DispatchKeyEventTypeKeyUp, Modifiers: mods, Key: def.key, Code: def.code,
		WindowsVirtualKeyCode: def.keyCode, NativeVirtualKeyCode: def.keyCode,
	}
	if down {
		ev.Type = input.DispatchKeyEventTypeRawKeyDown
		if def.text != "" && mods&(modAlt|modCtrl|modMeta) == 0 {
			ev.Type, ev.Text, ev.UnmodifiedText = input.DispatchKeyEventTypeKeyDown, def.text, def.text
		}
	}
	_, err := call(ctx, k.p, input.DispatchKeyEvent, ev)
	return err
}

// Press presses and releases key, with delay between the two. key may
// name modifiers to hold around it, joined by "+": "Control+a",
// "Shift+ArrowLeft".
func (k *Keyboard) Press(ctx context.Context, key string, delay time.Duration) error {
	parts := splitKeys(key)
	main := parts[len(parts)-1]
	mods := parts[:len(parts)-1]
	for _, m := range mods {
		if err := k.Down(ctx, m); err != nil {
			return err
		}
	}
	err := k.Down(ctx, main)
	if err == nil {
		err = Pause(ctx, delay)
	}
	if err == nil {
		err = k.Up(ctx, main)
	}
	for i := len(mods) - 1; i >= 0; i-- {
		if uerr := k.Up(ctx, mods[i]); err == nil {
			err = uerr
		}
	}
	return err
}

// splitKeys cuts a combination at its "+" signs; "+" itself, alone or
// last ("Shift++"), is a key.
func splitKeys(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s[1:], '+')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+2:]
	}
	if len(out) == 0 {
		out = []string{s}
	}
	return out
}

// Type types text character by character, with delay between them: a
// character on the keyboard is pressed as a key, any other inserted.
func (k *Keyboard) Type(ctx context.Context, text string, delay time.Duration) error {
	first := true
	for _, r := range text {
		if !first {
			if err := Pause(ctx, delay); err != nil {
				return err
			}
		}
		first = false
		if r == '\n' {
			r = '\r'
		}
		var err error
		if kk, known := kb.Keys[r]; known {
			err = k.typeKey(ctx, keyDef{key: kk.Key, code: kk.Code, keyCode: kk.Windows, shift: kk.Shift, text: kk.Text})
		} else {
			err = k.InsertText(ctx, string(r))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// typeKey presses and releases one key of Type.
func (k *Keyboard) typeKey(ctx context.Context, def keyDef) error {
	st := &k.p.st.keyboard
	st.mu.Lock()
	mods := st.modifiers
	st.mu.Unlock()
	if def.shift {
		mods |= modShift
	}
	if err := k.dispatch(ctx, def, true, mods); err != nil {
		return err
	}
	return k.dispatch(ctx, def, false, mods)
}

// InsertText inserts text where the focus is, without key events (as an
// input method does).
func (k *Keyboard) InsertText(ctx context.Context, text string) error {
	_, err := call(ctx, k.p, input.InsertText, input.InsertTextParams{Text: text})
	return err
}

// Pause waits for d, or until ctx ends (page.waitForTimeout and the
// delays between keys and clicks).
func Pause(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// buttonBits maps mouse buttons to the protocol's bits.
var buttonBits = map[string]int64{"left": 1, "right": 2, "middle": 4}

// button checks a button name; "" is "left".
func button(name string) (string, error) {
	if name == "" {
		return "left", nil
	}
	if _, ok := buttonBits[name]; !ok {
		return "", fmt.Errorf("mouse button %q: want left, right or middle", name)
	}
	return name, nil
}

// modifiers returns the bits of the named modifier keys, with those held
// on the keyboard.
func (m *Mouse) modifiers(names []string) (int64, error) {
	st := &m.p.st.keyboard
	st.mu.Lock()
	bits := st.modifiers
	st.mu.Unlock()
	for _, n := range names {
		b, ok := modifierBits[n]
		if !ok {
			return 0, fmt.Errorf("modifier %q: want Alt, Control, ControlOrMeta, Meta or Shift", n)
		}
		bits |= b
	}
	return bits, nil
}

// event sends one mouse event at the mouse's position.
func (m *Mouse) event(ctx context.Context, typ input.DispatchMouseEventType, btn string, count int, mods int64) error {
	st := &m.p.st.mouse
	st.mu.Lock()
	switch typ {
	case input.DispatchMouseEventTypeMousePressed:
		st.buttons |= buttonBits[btn]
	case input.DispatchMouseEventTypeMouseReleased:
		st.buttons &^= buttonBits[btn]
	}
	ev := input.DispatchMouseEventParams{Type: typ, X: st.x, Y: st.y, Modifiers: mods, Buttons: st.buttons,
		Button: input.MouseButton(btn), ClickCount: int64(count)}
	st.mu.Unlock()
	if btn == "" {
		ev.Button = input.MouseButtonNone
	}
	_, err := call(ctx, m.p, input.DispatchMouseEvent, ev)
	return err
}

// Move moves the mouse to x, y in steps moves (at least 1).
func (m *Mouse) Move(ctx context.Context, x, y float64, steps int) error {
	st := &m.p.st.mouse
	st.mu.Lock()
	fromX, fromY := st.x, st.y
	st.mu.Unlock()
	steps = max(steps, 1)
	mods, _ := m.modifiers(nil)
	for i := 1; i <= steps; i++ {
		f := float64(i) / float64(steps)
		st.mu.Lock()
		st.x, st.y = fromX+(x-fromX)*f, fromY+(y-fromY)*f
		st.mu.Unlock()
		if err := m.event(ctx, input.DispatchMouseEventTypeMouseMoved, "", 0, mods); err != nil {
			return err
		}
	}
	return nil
}

// Down presses button ("" is left) where the mouse is.
func (m *Mouse) Down(ctx context.Context, btn string, count int) error {
	btn, err := button(btn)
	if err != nil {
		return err
	}
	mods, _ := m.modifiers(nil)
	return m.event(ctx, input.DispatchMouseEventTypeMousePressed, btn, max(count, 1), mods)
}

// Up releases button ("" is left) where the mouse is.
func (m *Mouse) Up(ctx context.Context, btn string, count int) error {
	btn, err := button(btn)
	if err != nil {
		return err
	}
	mods, _ := m.modifiers(nil)
	return m.event(ctx, input.DispatchMouseEventTypeMouseReleased, btn, max(count, 1), mods)
}

// Click moves the mouse to x, y and clicks there o.ClickCount times (a
// double click is two), with o.Delay between pressing and releasing.
func (m *Mouse) Click(ctx context.Context, x, y float64, o ClickOptions) error {
	btn, err := button(o.Button)
	if err != nil {
		return err
	}
	mods, err := m.modifiers(o.Modifiers)
	if err != nil {
		return err
	}
	if err := m.Move(ctx, x, y, 1); err != nil {
		return err
	}
	for i := 1; i <= max(o.ClickCount, 1); i++ {
		if err := m.event(ctx, input.DispatchMouseEventTypeMousePressed, btn, i, mods); err != nil {
			return err
		}
		if err := Pause(ctx, o.Delay); err != nil {
			return err
		}
		if err := m.event(ctx, input.DispatchMouseEventTypeMouseReleased, btn, i, mods); err != nil {
			return err
		}
	}
	return nil
}
