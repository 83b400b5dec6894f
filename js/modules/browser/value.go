package k6browser

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/grafana/sobek"
)

// goValue is the hidden property that ties a JavaScript object of this
// module (a Page, an ElementHandle) to its Go value.
var goValue = sobek.NewSymbol("k6/browser value")

// method is a Go function called from JavaScript.
type method = func(sobek.FunctionCall) sobek.Value

// object returns a new object with the methods, tied to the Go value v.
func (m *instance) object(v any, methods map[string]method) *sobek.Object {
	rt := m.rt()
	obj := rt.NewObject()
	for name, fn := range methods {
		_ = obj.Set(name, fn)
	}
	_ = obj.DefineDataPropertySymbol(goValue, rt.ToValue(v), sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_FALSE)
	return obj
}

// valueOf returns the Go value an object of this module is tied to, or
// nil for any other value.
func valueOf(v sobek.Value) any {
	obj, ok := v.(*sobek.Object)
	if !ok {
		return nil
	}
	tag := obj.GetSymbol(goValue)
	if tag == nil || sobek.IsUndefined(tag) {
		return nil
	}
	return tag.Export()
}

// arg returns the i-th argument, undefined when there is none.
func arg(args []sobek.Value, i int) sobek.Value {
	if i < len(args) {
		return args[i]
	}
	return sobek.Undefined()
}

// str returns a required string argument, throwing when it is not one.
func str(c call, args []sobek.Value, i int, what string) string {
	v := arg(args, i)
	s, ok := v.Export().(string)
	if !ok {
		c.throw("%s must be a string, got %s", what, v.String())
	}
	return s
}

// fromJSON turns JSON returned by the page into a JavaScript value (nil
// JSON is undefined).
func (m *instance) fromJSON(raw json.RawMessage) sobek.Value {
	if raw == nil {
		return sobek.Undefined()
	}
	rt := m.rt()
	parse, _ := sobek.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
	v, err := parse(sobek.Undefined(), rt.ToValue(string(raw)))
	if err != nil {
		return sobek.Undefined()
	}
	return v
}

// pageArgs turns a script's arguments for the page into Go values: a
// handle of this module by reference, anything else as its JSON.
func pageArgs(c call, args []sobek.Value) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := valueOf(a).(type) {
		case *jsHandle:
			out[i] = v.h
			continue
		case *jsElement:
			out[i] = v.el
			continue
		}
		x := a.Export()
		if _, err := json.Marshal(x); err != nil {
			c.throw("argument %d cannot be passed to the page: %v", i+1, err)
		}
		out[i] = x
	}
	return out
}

// functionSource returns the source of a page function given as a
// function or a string, and whether it is an expression (a string that
// is not a function's source).
func functionSource(c call, v sobek.Value) (src string, expr bool) {
	if _, ok := sobek.AssertFunction(v); ok {
		return sourceOf(v), false
	}
	s, ok := v.Export().(string)
	if !ok || s == "" {
		c.throw("the page function must be a function or a string, got %s", v.String())
	}
	return s, !looksLikeFunction(s)
}

// sourceOf returns a function's source. The runtime drops the closing
// parenthesis of an arrow function whose body is parenthesized ("() =>
// ({a: 1})" reads "() => ({a: 1}"): a source that does not parse but
// parses with one more is given it back.
func sourceOf(fn sobek.Value) string {
	src := fn.String()
	if _, err := sobek.Compile("", "("+src+"\n)", true); err != nil {
		if _, err := sobek.Compile("", "("+src+")\n)", true); err == nil {
			return src + ")"
		}
	}
	return src
}

// looksLikeFunction reports whether s is the source of a function rather
// than an expression: it starts with "function", "async" or an arrow
// function's parameters.
func looksLikeFunction(s string) bool {
	s = strings.TrimSpace(s)
	for _, p := range []string{"function", "async ", "async("} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return arrowRE.MatchString(s)
}

// arrowRE matches the start of an arrow function: "(a, b) =>", "x =>".
var arrowRE = regexp.MustCompile(`^(\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>`)

// jsonValue converts a Go value the Go side built (a Box, a cookie list)
// to a JavaScript value through JSON, so that it is a plain object.
func (m *instance) jsonValue(v any) sobek.Value {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(m.rt().NewGoError(fmt.Errorf("k6/browser: %w", err)))
	}
	return m.fromJSON(raw)
}
