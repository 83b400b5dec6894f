package k6html

import (
	"strings"

	"github.com/grafana/sobek"
	"golang.org/x/net/html"
)

// selectedOptionNodes returns the options a select has selected: those with
// the selected attribute (the last one only for a select-one), or, for a
// select-one with none, its first option that is not disabled.
func selectedOptionNodes(sel *html.Node) []*html.Node {
	options := optionElements.MatchAll(sel)
	var out []*html.Node
	for _, o := range options {
		if hasAttr(o, "selected") {
			out = append(out, o)
		}
	}
	if hasAttr(sel, "multiple") {
		return out
	}
	if len(out) > 0 {
		return out[len(out)-1:]
	}
	for _, o := range options {
		if !optionIsDisabled(o) {
			return []*html.Node{o}
		}
	}
	return nil
}

// optionIsDisabled reports whether the option o, or its optgroup, is
// disabled.
func optionIsDisabled(o *html.Node) bool {
	return hasAttr(o, "disabled") || isElement(o.Parent, "optgroup") && hasAttr(o.Parent, "disabled")
}

// selectOptions is options() of a select: its option elements.
func (e *element) selectOptions(sobek.FunctionCall) sobek.Value {
	return e.kit.elements(e.doc, optionElements.MatchAll(e.node))
}

// datalistOptions is options() of a datalist.
func (e *element) datalistOptions(call sobek.FunctionCall) sobek.Value {
	return e.selectOptions(call)
}

// selectLength is length() of a select: the number of its options.
func (e *element) selectLength(sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(len(optionElements.MatchAll(e.node)))
}

// selectedOptions is selectedOptions() of a select.
func (e *element) selectedOptions(sobek.FunctionCall) sobek.Value {
	return e.kit.elements(e.doc, selectedOptionNodes(e.node))
}

// selectedIndex is selectedIndex() of a select: the position of its first
// selected option, -1 for none.
func (e *element) selectedIndex(sobek.FunctionCall) sobek.Value {
	selected := selectedOptionNodes(e.node)
	if len(selected) == 0 {
		return e.kit.rt.ToValue(-1)
	}
	return e.kit.rt.ToValue(indexOf(optionElements.MatchAll(e.node), selected[0]))
}

// selectType is type() of a select: "select-multiple" or "select-one".
func (e *element) selectType(sobek.FunctionCall) sobek.Value {
	if hasAttr(e.node, "multiple") {
		return e.kit.rt.ToValue("select-multiple")
	}
	return e.kit.rt.ToValue("select-one")
}

// selectValue is value() of a select: the value of its first selected
// option, "" for none.
func (e *element) selectValue(sobek.FunctionCall) sobek.Value {
	selected := selectedOptionNodes(e.node)
	if len(selected) == 0 {
		return e.kit.rt.ToValue("")
	}
	return e.kit.rt.ToValue(controlValue(selected[0]))
}

// optionSelect returns the select an option belongs to, nil for none.
func optionSelect(o *html.Node) *html.Node {
	for p := o.Parent; p != nil; p = p.Parent {
		if isElement(p, "select", "datalist") {
			return p
		}
	}
	return nil
}

// optionDisabled is disabled() of an option.
func (e *element) optionDisabled(sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(optionIsDisabled(e.node))
}

// optionIndex is index() of an option: its position in its select, 0
// outside one.
func (e *element) optionIndex(sobek.FunctionCall) sobek.Value {
	sel := optionSelect(e.node)
	if sel == nil {
		return e.kit.rt.ToValue(0)
	}
	return e.kit.rt.ToValue(indexOf(optionElements.MatchAll(sel), e.node))
}

// optionLabel is label() of an option: its label attribute, else its
// text with spaces collapsed.
func (e *element) optionLabel(sobek.FunctionCall) sobek.Value {
	if v, ok := attr(e.node, "label"); ok {
		return e.kit.rt.ToValue(v)
	}
	return e.kit.rt.ToValue(strings.Join(strings.Fields(nodeText(e.node)), " "))
}

// optionValue is value() of an option: its value attribute, else its
// text with spaces collapsed.
func (e *element) optionValue(sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(controlValue(e.node))
}
