package k6browser

import (
	"fmt"
	"math"
	"regexp"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
)

// opts reads the options object a method was given; its errors name the
// method and the option. A missing object reads as empty.
type opts struct {
	c   call
	obj *sobek.Object
}

// optionsOf returns the options object v, throwing when v is neither an
// object nor undefined/null.
func optionsOf(c call, v sobek.Value) opts {
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
		return opts{c: c}
	}
	obj, ok := v.(*sobek.Object)
	if !ok {
		c.throw("the options must be an object, got %s", v.String())
	}
	return opts{c: c, obj: obj}
}

// get returns the option name, or nil when it is not set.
func (o opts) get(name string) sobek.Value {
	if o.obj == nil {
		return nil
	}
	v := o.obj.Get(name)
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
		return nil
	}
	return v
}

// str returns a string option, or def.
func (o opts) str(name, def string) string {
	v := o.get(name)
	if v == nil {
		return def
	}
	s, ok := v.Export().(string)
	if !ok {
		o.c.throw("option %s: expected a string, got %s", name, v.String())
	}
	return s
}

// num returns a number option, or def.
func (o opts) num(name string, def float64) float64 {
	v := o.get(name)
	if v == nil {
		return def
	}
	switch n := v.Export().(type) {
	case int64:
		return float64(n)
	case float64:
		if !math.IsNaN(n) {
			return n
		}
	}
	o.c.throw("option %s: expected a number, got %s", name, v.String())
	return 0
}

// boolean returns a boolean option, or def.
func (o opts) boolean(name string, def bool) bool {
	v := o.get(name)
	if v == nil {
		return def
	}
	b, ok := v.Export().(bool)
	if !ok {
		o.c.throw("option %s: expected a boolean, got %s", name, v.String())
	}
	return b
}

// millis returns an option in milliseconds as a duration, or def; a
// negative one is refused.
func (o opts) millis(name string, def time.Duration) time.Duration {
	if o.get(name) == nil {
		return def
	}
	ms := o.num(name, 0)
	if ms < 0 {
		o.c.throw("option %s: %v must not be negative", name, ms)
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// timeout returns the timeout option over def (the page's or context's
// default); 0 means none.
func (o opts) timeout(def time.Duration) time.Duration { return o.millis("timeout", def) }

// object returns a nested options object.
func (o opts) object(name string) opts {
	return optionsOf(call{m: o.c.m, method: o.c.method + ": option " + name}, o.get(name))
}

// oneOf returns a string option that must be one of allowed ("" is def).
func (o opts) oneOf(name, def string, allowed ...string) string {
	s := o.str(name, def)
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	o.c.throw("option %s: %q is not one of %v", name, s, allowed)
	return ""
}

// waitUntil returns the waitUntil option, "load" by default.
func (o opts) waitUntil() chromium.LoadState {
	st, err := chromium.ParseLoadState(o.str("waitUntil", ""))
	if err != nil {
		o.c.throw("%v", err)
	}
	return st
}

// state returns the state option of a wait, "visible" by default.
func (o opts) state() string {
	return o.oneOf("state", "visible", "attached", "detached", "visible", "hidden")
}

// click returns the options of a click, hover, check or tap.
func (o opts) click() chromium.ClickOptions {
	co := chromium.ClickOptions{
		Button:     o.oneOf("button", "left", "left", "right", "middle"),
		ClickCount: int(o.num("clickCount", 1)),
		Delay:      o.millis("delay", 0),
		Force:      o.boolean("force", false),
		Trial:      o.boolean("trial", false),
	}
	if pos := o.object("position"); pos.obj != nil {
		co.Position = &chromium.Point{X: pos.num("x", 0), Y: pos.num("y", 0)}
	}
	if v := o.get("modifiers"); v != nil {
		list, ok := v.Export().([]any)
		if !ok {
			o.c.throw("option modifiers: expected an array of key names, got %s", v.String())
		}
		for _, k := range list {
			co.Modifiers = append(co.Modifiers, fmt.Sprint(k))
		}
	}
	return co
}

// textFilter reads a hasText or hasNotText option: a string or a RegExp.
func (o opts) textFilter(name string) *chromium.TextFilter {
	v := o.get(name)
	if v == nil {
		return nil
	}
	if re, ok := v.Export().(*regexp.Regexp); ok && re != nil {
		return &chromium.TextFilter{Text: re.String(), Regexp: true}
	}
	if obj, ok := v.(*sobek.Object); ok && obj.ClassName() == "RegExp" {
		return &chromium.TextFilter{Text: obj.Get("source").String(), Regexp: true, Flags: obj.Get("flags").String()}
	}
	s, ok := v.Export().(string)
	if !ok {
		o.c.throw("option %s: expected a string or a RegExp, got %s", name, v.String())
	}
	return &chromium.TextFilter{Text: s}
}

// locator returns the options of page.locator and locator.locator.
func (o opts) locator() chromium.LocatorOptions {
	return chromium.LocatorOptions{HasText: o.textFilter("hasText"), HasNotText: o.textFilter("hasNotText")}
}

// contextOptions reads browser.newContext's options.
func (o opts) contextOptions() chromium.ContextOptions {
	co := chromium.ContextOptions{
		DeviceScaleFactor:  o.num("deviceScaleFactor", 0),
		IsMobile:           o.boolean("isMobile", false),
		HasTouch:           o.boolean("hasTouch", false),
		UserAgent:          o.str("userAgent", ""),
		Locale:             o.str("locale", ""),
		TimezoneID:         o.str("timezoneID", o.str("timezoneId", "")),
		JavaScriptDisabled: !o.boolean("javaScriptEnabled", true),
		IgnoreHTTPSErrors:  o.boolean("ignoreHTTPSErrors", false),
		BypassCSP:          o.boolean("bypassCSP", false),
		ColorScheme:        o.oneOf("colorScheme", "", "", "light", "dark", "no-preference"),
		ReducedMotion:      o.oneOf("reducedMotion", "", "", "reduce", "no-preference"),
	}
	if vp := o.object("viewport"); vp.obj != nil {
		co.Viewport = vp.viewport()
	}
	if h := o.object("extraHTTPHeaders"); h.obj != nil {
		co.ExtraHTTPHeaders = map[string]string{}
		for _, k := range h.obj.Keys() {
			co.ExtraHTTPHeaders[k] = h.str(k, "")
		}
	}
	return co
}

// viewport reads {width, height}, both more than 0.
func (o opts) viewport() *chromium.Viewport {
	w, h := o.num("width", 0), o.num("height", 0)
	if w < 1 || h < 1 {
		o.c.throw("viewport {width: %v, height: %v}: width and height must be at least 1", w, h)
	}
	return &chromium.Viewport{Width: int64(w), Height: int64(h)}
}
