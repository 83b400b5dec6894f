package k6html

import (
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/grafana/sobek"
	"golang.org/x/net/html"
)

var (
	// listedControls are the elements a form or fieldset lists in its
	// elements (the DOM's listed elements but image inputs).
	listedControls = cascadia.MustCompile(`button, fieldset, input:not([type="image" i]), object, output, select, textarea`)
	// labelable are the elements a label can label.
	labelable = cascadia.MustCompile(`button, input:not([type="hidden" i]), meter, output, progress, select, textarea`)
)

// formFieldMethods are the methods of input, button and select elements.
var formFieldMethods = map[string]method[*element]{
	"form": (*element).form, "labels": (*element).labels, "name": stringAttr("name"),
	"formAction":     formSetting("formaction", "action", ""),
	"formEnctype":    formSetting("formenctype", "enctype", "application/x-www-form-urlencoded"),
	"formMethod":     formSetting("formmethod", "method", "get"),
	"formTarget":     formSetting("formtarget", "target", ""),
	"formNoValidate": (*element).formNoValidate,
}

// formOwner returns the form of the control n: the form its form
// attribute names by id, else its nearest form ancestor; nil for none.
func (d *document) formOwner(n *html.Node) *html.Node {
	if id, ok := attr(n, "form"); ok {
		for _, f := range descendants(d.dom.Nodes[0], func(f *html.Node) bool { return f.Data == "form" }) {
			if v, _ := attr(f, "id"); v == id {
				return f
			}
		}
		return nil
	}
	for p := n.Parent; p != nil; p = p.Parent {
		if isElement(p, "form") {
			return p
		}
	}
	return nil
}

// form is form(): the Element of the control's form, undefined when it
// has none.
func (e *element) form(sobek.FunctionCall) sobek.Value {
	return e.kit.element(e.doc, e.doc.formOwner(e.node))
}

// formSetting returns the method that gives the control's attribute own,
// else its form's attribute inherited, else def; methods in lower case.
func formSetting(own, inherited, def string) method[*element] {
	return func(e *element, _ sobek.FunctionCall) sobek.Value {
		v, ok := attr(e.node, own)
		if f := e.doc.formOwner(e.node); !ok && f != nil {
			v, ok = attr(f, inherited)
		}
		if !ok || v == "" {
			v = def
		}
		if own == "formmethod" {
			v = strings.ToLower(v)
		}
		return e.kit.rt.ToValue(v)
	}
}

// formNoValidate is formNoValidate(): whether the control or its form
// has the no-validate attribute.
func (e *element) formNoValidate(sobek.FunctionCall) sobek.Value {
	f := e.doc.formOwner(e.node)
	return e.kit.rt.ToValue(hasAttr(e.node, "formnovalidate") || f != nil && hasAttr(f, "novalidate"))
}

// labels is labels(): the label elements of the control: those whose
// for attribute is its id, and the label it sits in.
func (e *element) labels(sobek.FunctionCall) sobek.Value {
	id, _ := attr(e.node, "id")
	var out []*html.Node
	for _, l := range descendants(e.doc.dom.Nodes[0], func(n *html.Node) bool { return n.Data == "label" }) {
		if f, ok := attr(l, "for"); ok && id != "" && f == id {
			out = append(out, l)
		} else if !ok && e.kit.labelControl(l) == e.node {
			out = append(out, l)
		}
	}
	return e.kit.elements(e.doc, out)
}

// labelControl returns the control the label l labels: the element its
// for attribute names by id, else its first labelable descendant.
func (k *Kit) labelControl(l *html.Node) *html.Node {
	root := l
	for root.Parent != nil {
		root = root.Parent
	}
	if id, ok := attr(l, "for"); ok {
		for _, n := range descendants(root, func(n *html.Node) bool { return labelable.Match(n) }) {
			if v, _ := attr(n, "id"); v == id {
				return n
			}
		}
		return nil
	}
	for _, n := range labelable.MatchAll(l) {
		if n != l {
			return n
		}
	}
	return nil
}

// control is control(): the Element the label labels, undefined for
// none.
func (e *element) control(sobek.FunctionCall) sobek.Value {
	return e.kit.element(e.doc, e.kit.labelControl(e.node))
}

// labelForm is form() of a label: its control's form.
func (e *element) labelForm(sobek.FunctionCall) sobek.Value {
	c := e.kit.labelControl(e.node)
	if c == nil {
		return sobek.Undefined()
	}
	return e.kit.element(e.doc, e.doc.formOwner(c))
}

// legendForm is form() of a legend: its fieldset's form.
func (e *element) legendForm(sobek.FunctionCall) sobek.Value {
	if !isElement(e.node.Parent, "fieldset") {
		return sobek.Undefined()
	}
	return e.kit.element(e.doc, e.doc.formOwner(e.node.Parent))
}

// formElements is elements(): the listed controls of a form or fieldset.
func (e *element) formElements(sobek.FunctionCall) sobek.Value {
	return e.kit.elements(e.doc, e.listed())
}

// listed returns the listed controls under the node.
func (e *element) listed() []*html.Node {
	var out []*html.Node
	for _, n := range listedControls.MatchAll(e.node) {
		if n != e.node {
			out = append(out, n)
		}
	}
	return out
}

// formLength is length(): the number of a form's listed controls.
func (e *element) formLength(sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(len(e.listed()))
}

// formMethodOf is method() of a form: its method in lower case, "get" by
// default.
func (e *element) formMethodOf(sobek.FunctionCall) sobek.Value {
	v, _ := attr(e.node, "method")
	if v == "" {
		v = "get"
	}
	return e.kit.rt.ToValue(strings.ToLower(v))
}

// buttonValue is value() of a button: its value attribute, else the
// markup of its content.
func (e *element) buttonValue(call sobek.FunctionCall) sobek.Value {
	if v, ok := attr(e.node, "value"); ok {
		return e.kit.rt.ToValue(v)
	}
	return e.innerHTML(call)
}

// textLength is length() of a textarea: the byte length of its text.
func (e *element) textLength(sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(len(nodeText(e.node)))
}
