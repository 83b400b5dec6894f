package k6browser

import (
	"context"
	"strconv"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
)

// actor is what Locator, ElementHandle and the selector methods of Page
// act on: a chromium.Locator or a chromium.Element.
type actor interface {
	Click(ctx context.Context, o chromium.ClickOptions) error
	Dblclick(ctx context.Context, o chromium.ClickOptions) error
	Hover(ctx context.Context, o chromium.ClickOptions) error
	SetChecked(ctx context.Context, on bool, o chromium.ClickOptions) error
	Fill(ctx context.Context, value string, force bool) error
	Clear(ctx context.Context, force bool) error
	Focus(ctx context.Context) error
	Blur(ctx context.Context) error
	Type(ctx context.Context, text string, delay time.Duration) error
	Press(ctx context.Context, key string, delay time.Duration) error
	SelectOption(ctx context.Context, specs []chromium.OptionSpec) ([]string, error)
	DispatchEvent(ctx context.Context, typ string, init map[string]any) error
	ScrollIntoView(ctx context.Context) error
	TextContent(ctx context.Context) (string, error)
	InnerText(ctx context.Context) (string, error)
	InnerHTML(ctx context.Context) (string, error)
	InputValue(ctx context.Context) (string, error)
	Attribute(ctx context.Context, name string) (string, bool, error)
	IsChecked(ctx context.Context) (bool, error)
	IsEnabled(ctx context.Context) (bool, error)
	IsEditable(ctx context.Context) (bool, error)
	IsVisible(ctx context.Context) (bool, error)
	BoundingBox(ctx context.Context) (chromium.Box, error)
}

// action is one method of an actor: args are its JavaScript arguments
// (after the selector, for Page's), c names it and carries the default
// timeout, which an options argument's timeout overrides.
type action func(c call, a actor, args []sobek.Value) sobek.Value

// actions are the methods Locator, ElementHandle and Page share, by name.
var actions = map[string]action{
	"click":    clickLike(func(a actor) func(context.Context, chromium.ClickOptions) error { return a.Click }),
	"dblclick": clickLike(func(a actor) func(context.Context, chromium.ClickOptions) error { return a.Dblclick }),
	"hover":    clickLike(func(a actor) func(context.Context, chromium.ClickOptions) error { return a.Hover }),
	"tap":      clickLike(func(a actor) func(context.Context, chromium.ClickOptions) error { return a.Click }),
	"check":    checkLike(true),
	"uncheck":  checkLike(false),
	"setChecked": func(c call, a actor, args []sobek.Value) sobek.Value {
		on := arg(args, 0).ToBoolean()
		return checkLike(on)(c, a, args[min(1, len(args)):])
	},
	"fill": func(c call, a actor, args []sobek.Value) sobek.Value {
		value := str(c, args, 0, "the value")
		o := optionsOf(c, arg(args, 1))
		force := o.boolean("force", false)
		c.timeout = o.timeout(c.timeout)
		return settle(c, func(ctx context.Context) error { return a.Fill(ctx, value, force) })
	},
	"clear": func(c call, a actor, args []sobek.Value) sobek.Value {
		o := optionsOf(c, arg(args, 0))
		force := o.boolean("force", false)
		c.timeout = o.timeout(c.timeout)
		return settle(c, func(ctx context.Context) error { return a.Clear(ctx, force) })
	},
	"focus": func(c call, a actor, args []sobek.Value) sobek.Value {
		c.timeout = optionsOf(c, arg(args, 0)).timeout(c.timeout)
		return settle(c, a.Focus)
	},
	"blur": func(c call, a actor, args []sobek.Value) sobek.Value {
		c.timeout = optionsOf(c, arg(args, 0)).timeout(c.timeout)
		return settle(c, a.Blur)
	},
	"type":              typeLike,
	"pressSequentially": typeLike,
	"press": func(c call, a actor, args []sobek.Value) sobek.Value {
		key := str(c, args, 0, "the key")
		o := optionsOf(c, arg(args, 1))
		delay := o.millis("delay", 0)
		c.timeout = o.timeout(c.timeout)
		return settle(c, func(ctx context.Context) error { return a.Press(ctx, key, delay) })
	},
	"selectOption": func(c call, a actor, args []sobek.Value) sobek.Value {
		specs := optionSpecs(c, arg(args, 0))
		c.timeout = optionsOf(c, arg(args, 1)).timeout(c.timeout)
		return promise(c, func(ctx context.Context) ([]string, error) { return a.SelectOption(ctx, specs) },
			func(v []string) sobek.Value { return c.m.jsonValue(v) })
	},
	"dispatchEvent": func(c call, a actor, args []sobek.Value) sobek.Value {
		typ := str(c, args, 0, "the event type")
		var init map[string]any
		if v := arg(args, 1); !sobek.IsUndefined(v) && !sobek.IsNull(v) {
			init, _ = v.Export().(map[string]any)
		}
		c.timeout = optionsOf(c, arg(args, 2)).timeout(c.timeout)
		return settle(c, func(ctx context.Context) error { return a.DispatchEvent(ctx, typ, init) })
	},
	"scrollIntoViewIfNeeded": func(c call, a actor, args []sobek.Value) sobek.Value {
		c.timeout = optionsOf(c, arg(args, 0)).timeout(c.timeout)
		return settle(c, a.ScrollIntoView)
	},
	"textContent": readString(func(a actor) func(context.Context) (string, error) { return a.TextContent }),
	"innerText":   readString(func(a actor) func(context.Context) (string, error) { return a.InnerText }),
	"innerHTML":   readString(func(a actor) func(context.Context) (string, error) { return a.InnerHTML }),
	"inputValue":  readString(func(a actor) func(context.Context) (string, error) { return a.InputValue }),
	"getAttribute": func(c call, a actor, args []sobek.Value) sobek.Value {
		name := str(c, args, 0, "the attribute name")
		c.timeout = optionsOf(c, arg(args, 1)).timeout(c.timeout)
		type attr struct {
			value string
			ok    bool
		}
		return promise(c, func(ctx context.Context) (attr, error) {
			v, ok, err := a.Attribute(ctx, name)
			return attr{v, ok}, err
		}, func(v attr) sobek.Value {
			if !v.ok {
				return sobek.Null()
			}
			return c.m.rt().ToValue(v.value)
		})
	},
	"isChecked":  readBool(func(a actor) func(context.Context) (bool, error) { return a.IsChecked }, false),
	"isEnabled":  readBool(func(a actor) func(context.Context) (bool, error) { return a.IsEnabled }, false),
	"isDisabled": readBool(func(a actor) func(context.Context) (bool, error) { return a.IsEnabled }, true),
	"isEditable": readBool(func(a actor) func(context.Context) (bool, error) { return a.IsEditable }, false),
	"isVisible":  readBool(func(a actor) func(context.Context) (bool, error) { return a.IsVisible }, false),
	"isHidden":   readBool(func(a actor) func(context.Context) (bool, error) { return a.IsVisible }, true),
	"boundingBox": func(c call, a actor, args []sobek.Value) sobek.Value {
		c.timeout = optionsOf(c, arg(args, 0)).timeout(c.timeout)
		return promise(c, a.BoundingBox, func(b chromium.Box) sobek.Value { return c.m.jsonValue(b) })
	},
}

// clickLike is the method of a pointer action taking click options.
func clickLike(pick func(actor) func(context.Context, chromium.ClickOptions) error) action {
	return func(c call, a actor, args []sobek.Value) sobek.Value {
		o := optionsOf(c, arg(args, 0))
		co := o.click()
		c.timeout = o.timeout(c.timeout)
		do := pick(a)
		return settle(c, func(ctx context.Context) error { return do(ctx, co) })
	}
}

// checkLike is check (on) or uncheck.
func checkLike(on bool) action {
	return func(c call, a actor, args []sobek.Value) sobek.Value {
		o := optionsOf(c, arg(args, 0))
		co := o.click()
		c.timeout = o.timeout(c.timeout)
		return settle(c, func(ctx context.Context) error { return a.SetChecked(ctx, on, co) })
	}
}

// typeLike is type and pressSequentially: text, then {delay, timeout}.
func typeLike(c call, a actor, args []sobek.Value) sobek.Value {
	text := str(c, args, 0, "the text")
	o := optionsOf(c, arg(args, 1))
	delay := o.millis("delay", 0)
	c.timeout = o.timeout(c.timeout)
	return settle(c, func(ctx context.Context) error { return a.Type(ctx, text, delay) })
}

// readString is a method resolving to a string property.
func readString(pick func(actor) func(context.Context) (string, error)) action {
	return func(c call, a actor, args []sobek.Value) sobek.Value {
		c.timeout = optionsOf(c, arg(args, 0)).timeout(c.timeout)
		return promise(c, pick(a), func(s string) sobek.Value { return c.m.rt().ToValue(s) })
	}
}

// readBool is a method resolving to a boolean state, negated when not.
func readBool(pick func(actor) func(context.Context) (bool, error), not bool) action {
	return func(c call, a actor, args []sobek.Value) sobek.Value {
		c.timeout = optionsOf(c, arg(args, 0)).timeout(c.timeout)
		return promise(c, pick(a), func(b bool) sobek.Value { return c.m.rt().ToValue(b != not) })
	}
}

// optionSpecs reads selectOption's values: a string (a value or a
// label), an {value, label, index} object, or an array of them.
func optionSpecs(c call, v sobek.Value) []chromium.OptionSpec {
	var items []sobek.Value
	if obj, ok := v.(*sobek.Object); ok && obj.ClassName() == "Array" {
		for i := range int(obj.Get("length").ToInteger()) {
			items = append(items, obj.Get(strconv.Itoa(i)))
		}
	} else {
		items = []sobek.Value{v}
	}
	var out []chromium.OptionSpec
	for _, it := range items {
		if s, ok := it.Export().(string); ok {
			out = append(out, chromium.OptionSpec{Value: &s}, chromium.OptionSpec{Label: &s})
			continue
		}
		o := optionsOf(c, it)
		if o.obj == nil {
			c.throw("the values must be strings or {value, label, index} objects, got %s", it.String())
		}
		var spec chromium.OptionSpec
		if o.get("value") != nil {
			s := o.str("value", "")
			spec.Value = &s
		}
		if o.get("label") != nil {
			s := o.str("label", "")
			spec.Label = &s
		}
		if o.get("index") != nil {
			i := int(o.num("index", 0))
			spec.Index = &i
		}
		out = append(out, spec)
	}
	return out
}
