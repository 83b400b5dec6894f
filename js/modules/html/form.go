package k6html

import (
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"github.com/grafana/sobek"
	"golang.org/x/net/html"
)

var (
	// formControls are the elements of a form that FormFields reads.
	formControls = cascadia.MustCompile("input, select, textarea, keygen, button")
	// optionElements are the options of a select.
	optionElements = cascadia.MustCompile("option")
)

// Field is one name and value a form submits.
type Field struct {
	Name, Value string
}

// FormFields returns the fields the forms of sel submit, in document
// order, as jQuery's serializeArray reads them: the named input, select,
// textarea and keygen elements of each form or fieldset (or the elements
// of sel themselves when they are neither) that are not disabled, but submit,
// button, image, reset and file inputs, unchecked checkboxes and radio
// buttons; a select gives its selected options; newlines become CRLF.
func FormFields(sel *goquery.Selection) []Field {
	var out []Field
	for _, n := range controls(sel) {
		name, _ := attr(n, "name")
		if name == "" || !submittable(n) {
			continue
		}
		for _, v := range values(n) {
			out = append(out, Field{Name: name, Value: crlf(v)})
		}
	}
	return out
}

// controls returns the form controls of the forms and fieldsets of sel
// (which have a list of elements, as jQuery reads them), and the other
// nodes of sel themselves.
func controls(sel *goquery.Selection) []*html.Node {
	var out []*html.Node
	for _, n := range sel.Nodes {
		if isElement(n, "form", "fieldset") {
			out = append(out, formControls.MatchAll(n)...)
			continue
		}
		out = append(out, n)
	}
	return out
}

// submittable reports whether the control n is serialized: an input,
// select, textarea or keygen that is not disabled, not a button-like or
// file input, and checked if it is a checkbox or a radio button.
func submittable(n *html.Node) bool {
	if n.Type != html.ElementNode || hasAttr(n, "disabled") {
		return false
	}
	switch n.Data {
	case "select", "textarea", "keygen":
		return true
	case "input":
	default:
		return false
	}
	switch inputType(n) {
	case "submit", "button", "image", "reset", "file":
		return false
	case "checkbox", "radio":
		return hasAttr(n, "checked")
	}
	return true
}

// values returns what the control n submits: its value, or the values of
// a select's selected options.
func values(n *html.Node) []string {
	if n.Data == "select" {
		return selectValues(n)
	}
	return []string{controlValue(n)}
}

// controlValue is jQuery's val() of an input, textarea, button or option:
// the value attribute ("on" for a checkbox or radio button without one),
// a textarea's text, an option's text when it has no value attribute.
func controlValue(n *html.Node) string {
	switch n.Data {
	case "textarea":
		return nodeText(n)
	case "option":
		if v, ok := attr(n, "value"); ok {
			return v
		}
		return strings.Join(strings.Fields(nodeText(n)), " ")
	}
	if v, ok := attr(n, "value"); ok {
		return v
	}
	if t := inputType(n); n.Data == "input" && (t == "checkbox" || t == "radio") {
		return "on"
	}
	return ""
}

// selectValues returns the values of the options selectedOptionNodes
// finds.
func selectValues(n *html.Node) []string {
	var out []string
	for _, o := range selectedOptionNodes(n) {
		out = append(out, controlValue(o))
	}
	return out
}

// inputType returns the lower-case type of an input, "text" when it has
// none.
func inputType(n *html.Node) string {
	t, ok := attr(n, "type")
	if !ok || t == "" {
		return "text"
	}
	return strings.ToLower(t)
}

// crlf normalises the newlines of a value to CRLF, as forms submit them.
func crlf(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\n", "\r\n")
}

// val is val(): the value of the first node (jQuery's val): an array of
// the selected values of a multiple select, undefined for an empty
// Selection or a select without options.
func (s *selection) val(sobek.FunctionCall) sobek.Value {
	if s.sel.Length() == 0 {
		return sobek.Undefined()
	}
	n := s.sel.Nodes[0]
	if n.Type == html.ElementNode && n.Data == "select" {
		vals := selectValues(n)
		if hasAttr(n, "multiple") {
			return s.kit.rt.ToValue(strings2any(vals))
		}
		if len(vals) == 0 {
			return sobek.Undefined()
		}
		return s.kit.rt.ToValue(vals[0])
	}
	return s.kit.rt.ToValue(controlValue(n))
}

// serialize is serialize(): the fields of FormFields in
// application/x-www-form-urlencoded form, as jQuery encodes them.
func (s *selection) serialize(sobek.FunctionCall) sobek.Value {
	fields := FormFields(s.sel)
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = formEscape(f.Name) + "=" + formEscape(f.Value)
	}
	return s.kit.rt.ToValue(strings.Join(parts, "&"))
}

// serializeArray is serializeArray(): the fields of FormFields as
// [{name, value}, …].
func (s *selection) serializeArray(sobek.FunctionCall) sobek.Value {
	fields := FormFields(s.sel)
	out := make([]any, len(fields))
	for i, f := range fields {
		obj := s.kit.rt.NewObject()
		_ = obj.Set("name", f.Name)
		_ = obj.Set("value", f.Value)
		out[i] = obj
	}
	return s.kit.rt.NewArray(out...)
}

// serializeObject is serializeObject(): the fields of FormFields as
// {name: value}; a name that repeats (checkboxes, a multiple select) has
// the array of its values.
func (s *selection) serializeObject(sobek.FunctionCall) sobek.Value {
	obj := s.kit.rt.NewObject()
	seen := map[string][]string{}
	var order []string
	for _, f := range FormFields(s.sel) {
		if _, ok := seen[f.Name]; !ok {
			order = append(order, f.Name)
		}
		seen[f.Name] = append(seen[f.Name], f.Value)
	}
	for _, name := range order {
		if vals := seen[name]; len(vals) == 1 {
			_ = obj.Set(name, vals[0])
		} else {
			_ = obj.Set(name, strings2any(vals))
		}
	}
	return obj
}

// strings2any returns ss as a []any, for a JavaScript array.
func strings2any(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// formEscape escapes s as JavaScript's encodeURIComponent does, spaces as
// "+" (jQuery's form encoding): letters, digits and -_.!~*'() stay.
func formEscape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			b.WriteByte('+')
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-_.!~*'()", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}
