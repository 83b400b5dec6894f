package k6html

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/grafana/sobek"
	"golang.org/x/net/html"
)

// data is data(key?): the data-* attributes of the first element, as
// jQuery's data() reads them: data('test-id') and data('testId') are the
// value of data-test-id, data() is every one in an object keyed in
// camelCase (testId). Values convert as jQuery converts them: "true",
// "false" and "null" to their values, a number written as JavaScript
// writes it to that number, a JSON object or array to its value, anything
// else stays a string. A missing key, or an empty Selection, gives
// undefined.
func (s *selection) data(call sobek.FunctionCall) sobek.Value {
	if s.sel.Length() == 0 {
		return sobek.Undefined()
	}
	n := s.sel.Nodes[0]
	if absent(call.Argument(0)) {
		obj := s.kit.rt.NewObject()
		for _, a := range dataAttrs(n) {
			_ = obj.Set(camelCase(a.Key[len("data-"):]), s.dataValue(a.Val))
		}
		return obj
	}
	key := camelCase(s.kit.str("Selection.data", "key", call.Argument(0)))
	for _, a := range dataAttrs(n) {
		if camelCase(a.Key[len("data-"):]) == key {
			return s.dataValue(a.Val)
		}
	}
	return sobek.Undefined()
}

// dataAttrs returns the data-* attributes of n.
func dataAttrs(n *html.Node) []html.Attribute {
	var out []html.Attribute
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.HasPrefix(a.Key, "data-") {
			out = append(out, a)
		}
	}
	return out
}

// camelCase turns a dashed name into camelCase, as jQuery does: each
// "-x" becomes "X" ("test-id" is "testId").
func camelCase(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '-' && i+1 < len(s) && 'a' <= s[i+1] && s[i+1] <= 'z' {
			b.WriteByte(s[i+1] - 'a' + 'A')
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// dataValue converts the text of a data-* attribute as jQuery does.
func (s *selection) dataValue(text string) sobek.Value {
	rt := s.kit.rt
	switch text {
	case "true":
		return rt.ToValue(true)
	case "false":
		return rt.ToValue(false)
	case "null":
		return sobek.Null()
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil && rt.ToValue(f).String() == text {
		return rt.ToValue(f)
	}
	if isJSONContainer(text) {
		if v, err := parseJSON(rt, text); err == nil {
			return v
		}
	}
	return rt.ToValue(text)
}

// isJSONContainer reports whether text looks like a JSON object or array
// and is valid JSON.
func isJSONContainer(text string) bool {
	if len(text) < 2 {
		return false
	}
	first, last := text[0], text[len(text)-1]
	return (first == '{' && last == '}' || first == '[' && last == ']') && json.Valid([]byte(text))
}

// parseJSON parses text with the runtime's JSON.parse, so that the script
// gets plain objects and arrays.
func parseJSON(rt *sobek.Runtime, text string) (sobek.Value, error) {
	parse, _ := sobek.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
	return parse(sobek.Undefined(), rt.ToValue(text))
}
