package k6html

import (
	"slices"
	"strings"

	"github.com/grafana/sobek"
	"golang.org/x/net/html"
)

// descendants returns the descendant elements of n that keep reports
// true for, in document order.
func descendants(n *html.Node, keep func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && keep(c) {
				out = append(out, c)
			}
			walk(c)
		}
	}
	walk(n)
	return out
}

// getElementsByClassName is getElementsByClassName(names): the descendant
// elements that have every class of names (separated by spaces).
func (e *element) getElementsByClassName(call sobek.FunctionCall) sobek.Value {
	want := strings.Fields(e.kit.str("Element.getElementsByClassName", "names", call.Argument(0)))
	return e.kit.elements(e.doc, descendants(e.node, func(n *html.Node) bool {
		v, _ := attr(n, "class")
		have := strings.Fields(v)
		for _, w := range want {
			if !slices.Contains(have, w) {
				return false
			}
		}
		return len(want) > 0
	}))
}

// getElementsByTagName is getElementsByTagName(name): the descendant
// elements of that tag (in any letter case), every one for "*".
func (e *element) getElementsByTagName(call sobek.FunctionCall) sobek.Value {
	name := strings.ToLower(e.kit.str("Element.getElementsByTagName", "name", call.Argument(0)))
	return e.kit.elements(e.doc, descendants(e.node, func(n *html.Node) bool {
		return name == "*" || n.Data == name
	}))
}

// querySelector is querySelector(selector): the first descendant element
// that matches selector, undefined when none does.
func (e *element) querySelector(call sobek.FunctionCall) sobek.Value {
	m := e.kit.matcher("Element.querySelector", call.Argument(0))
	found := e.doc.node(e.node).FindMatcher(m)
	if found.Length() == 0 {
		return sobek.Undefined()
	}
	return e.kit.element(e.doc, found.Nodes[0])
}

// querySelectorAll is querySelectorAll(selector): the descendant elements
// that match selector.
func (e *element) querySelectorAll(call sobek.FunctionCall) sobek.Value {
	m := e.kit.matcher("Element.querySelectorAll", call.Argument(0))
	return e.kit.elements(e.doc, e.doc.node(e.node).FindMatcher(m).Nodes)
}

// matches is matches(selector): whether the element matches selector.
func (e *element) matches(call sobek.FunctionCall) sobek.Value {
	m := e.kit.matcher("Element.matches", call.Argument(0))
	return e.kit.rt.ToValue(m.Match(e.node))
}

// otherNode returns the node of the Element argument of method.
func (e *element) otherNode(method string, v sobek.Value) *html.Node {
	other, ok := elementArg(v)
	if !ok {
		e.kit.throwType(method, "node", "an Element", v)
	}
	return other.node
}

// contains is contains(element): whether element is this node or one of
// its descendants.
func (e *element) contains(call sobek.FunctionCall) sobek.Value {
	for n := e.otherNode("Element.contains", call.Argument(0)); n != nil; n = n.Parent {
		if n == e.node {
			return e.kit.rt.ToValue(true)
		}
	}
	return e.kit.rt.ToValue(false)
}

// isSameNode is isSameNode(element): whether element is this very node.
func (e *element) isSameNode(call sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(e.otherNode("Element.isSameNode", call.Argument(0)) == e.node)
}

// isEqualNode is isEqualNode(element): whether element has the same
// markup as this node.
func (e *element) isEqualNode(call sobek.FunctionCall) sobek.Value {
	other := &element{kit: e.kit, doc: e.doc, node: e.otherNode("Element.isEqualNode", call.Argument(0))}
	return e.kit.rt.ToValue(other.outerHTML() == e.outerHTML())
}
