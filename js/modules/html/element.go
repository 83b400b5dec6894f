package k6html

import (
	"strings"

	"github.com/grafana/sobek"
	"golang.org/x/net/html"
)

// element is the Go value behind a JavaScript Element: one node of a
// document (an element, or a text, comment, doctype or document node).
// Its DOM-like members are methods, as in k6: el.nodeName(),
// el.textContent().
type element struct {
	opaque
	kit  *Kit
	doc  *document
	node *html.Node
}

// element returns the JavaScript Element of n, a node of doc, with the
// methods of its tag; undefined when n is nil.
func (k *Kit) element(doc *document, n *html.Node) sobek.Value {
	if n == nil {
		return sobek.Undefined()
	}
	obj := k.rt.NewDynamicObject(&element{kit: k, doc: doc, node: n})
	_ = obj.SetPrototype(k.elementPrototype(n))
	return obj
}

// elements returns the JavaScript Elements of nodes, in an array.
func (k *Kit) elements(doc *document, nodes []*html.Node) sobek.Value {
	out := make([]any, len(nodes))
	for i, n := range nodes {
		out[i] = k.element(doc, n)
	}
	return k.rt.NewArray(out...)
}

// elementPrototype returns the prototype of the Element of n: the one of
// its tag when the tag has methods of its own, else the plain Element's.
func (k *Kit) elementPrototype(n *html.Node) *sobek.Object {
	tag := ""
	if n.Type == html.ElementNode {
		if _, ok := k.tags[n.Data]; ok {
			tag = n.Data
		}
	}
	proto, ok := k.elementProtos[tag]
	if !ok {
		proto = prototype(k, k.elementProtos[""], "Element", k.tags[tag])
		k.elementProtos[tag] = proto
	}
	return proto
}

// elementMethods are the methods of every Element, named after the DOM's
// Element and Node members k6 documents.
var elementMethods = map[string]method[*element]{
	"selection": (*element).selection, "nodeName": (*element).nodeName, "nodeType": (*element).nodeType,
	"nodeValue": (*element).nodeValue, "id": (*element).id, "innerHTML": (*element).innerHTML,
	"textContent": (*element).textContent, "ownerDocument": (*element).ownerDocument,
	"attributes": (*element).attributes, "toString": (*element).toString,
	"firstChild":        related(func(n *html.Node) *html.Node { return n.FirstChild }),
	"lastChild":         related(func(n *html.Node) *html.Node { return n.LastChild }),
	"previousSibling":   related(func(n *html.Node) *html.Node { return n.PrevSibling }),
	"nextSibling":       related(func(n *html.Node) *html.Node { return n.NextSibling }),
	"parentNode":        related(func(n *html.Node) *html.Node { return n.Parent }),
	"parentElement":     related(func(n *html.Node) *html.Node { return elementOrNil(n.Parent) }),
	"firstElementChild": related(func(n *html.Node) *html.Node { return nextElement(n.FirstChild, next) }),
	"lastElementChild":  related(func(n *html.Node) *html.Node { return nextElement(n.LastChild, prev) }),
	"previousElementSibling": related(func(n *html.Node) *html.Node {
		return nextElement(n.PrevSibling, prev)
	}),
	"nextElementSibling": related(func(n *html.Node) *html.Node { return nextElement(n.NextSibling, next) }),
	"childNodes":         (*element).childNodes, "children": (*element).children,
	"childElementCount": (*element).childElementCount, "hasChildNodes": (*element).hasChildNodes,
	"classList": (*element).classList, "className": (*element).className, "lang": (*element).lang,
	"hasAttribute": (*element).hasAttribute, "getAttribute": (*element).getAttribute,
	"getAttributeNode": (*element).getAttributeNode, "hasAttributes": (*element).hasAttributes,
	"isSameNode": (*element).isSameNode, "isEqualNode": (*element).isEqualNode, "contains": (*element).contains,
	"getElementsByClassName": (*element).getElementsByClassName,
	"getElementsByTagName":   (*element).getElementsByTagName,
	"querySelector":          (*element).querySelector, "querySelectorAll": (*element).querySelectorAll,
	"matches": (*element).matches, "namespaceURI": (*element).namespaceURI,
	"isDefaultNamespace": (*element).isDefaultNamespace,
}

// related returns the method that gives the Element of the node that
// move finds from this one, undefined when there is none.
func related(move func(*html.Node) *html.Node) method[*element] {
	return func(e *element, _ sobek.FunctionCall) sobek.Value {
		return e.kit.element(e.doc, move(e.node))
	}
}

// next and prev are the sibling moves nextElement takes.
func next(n *html.Node) *html.Node { return n.NextSibling }
func prev(n *html.Node) *html.Node { return n.PrevSibling }

// nextElement returns the first element from n on (n included), moving
// with step; nil when there is none.
func nextElement(n *html.Node, step func(*html.Node) *html.Node) *html.Node {
	for ; n != nil; n = step(n) {
		if n.Type == html.ElementNode {
			return n
		}
	}
	return nil
}

// elementOrNil returns n when it is an element, else nil.
func elementOrNil(n *html.Node) *html.Node {
	if isElement(n) {
		return n
	}
	return nil
}

// selection is selection(): the Selection of this node alone.
func (e *element) selection(sobek.FunctionCall) sobek.Value {
	return e.kit.wrap(e.doc, e.doc.node(e.node))
}

// nodeName is nodeName(): the tag name in lower case, as the parser
// stores it, for an element; "#text", "#comment", "#document", or the
// doctype's name for the other nodes.
func (e *element) nodeName(sobek.FunctionCall) sobek.Value {
	names := map[html.NodeType]string{html.TextNode: "#text", html.CommentNode: "#comment", html.DocumentNode: "#document"}
	if name, ok := names[e.node.Type]; ok {
		return e.kit.rt.ToValue(name)
	}
	return e.kit.rt.ToValue(e.node.Data)
}

// nodeType is nodeType(): the DOM's number of the node's type (1 element,
// 3 text, 8 comment, 9 document, 10 doctype).
func (e *element) nodeType(sobek.FunctionCall) sobek.Value {
	types := map[html.NodeType]int{
		html.ElementNode: 1, html.TextNode: 3, html.CommentNode: 8, html.DocumentNode: 9, html.DoctypeNode: 10,
	}
	if t, ok := types[e.node.Type]; ok {
		return e.kit.rt.ToValue(t)
	}
	return sobek.Undefined()
}

// nodeValue is nodeValue(): the text of a text or comment node, undefined
// for the others.
func (e *element) nodeValue(sobek.FunctionCall) sobek.Value {
	if e.node.Type == html.TextNode || e.node.Type == html.CommentNode {
		return e.kit.rt.ToValue(e.node.Data)
	}
	return sobek.Undefined()
}

// id is id(): the id attribute, "" when there is none.
func (e *element) id(sobek.FunctionCall) sobek.Value {
	v, _ := attr(e.node, "id")
	return e.kit.rt.ToValue(v)
}

// innerHTML is innerHTML(): the markup of the node's children.
func (e *element) innerHTML(sobek.FunctionCall) sobek.Value {
	var b strings.Builder
	for c := e.node.FirstChild; c != nil; c = c.NextSibling {
		if err := html.Render(&b, c); err != nil {
			panic(e.kit.rt.NewGoError(err))
		}
	}
	return e.kit.rt.ToValue(b.String())
}

// outerHTML returns the markup of the node itself.
func (e *element) outerHTML() string {
	var b strings.Builder
	if err := html.Render(&b, e.node); err != nil {
		panic(e.kit.rt.NewGoError(err))
	}
	return b.String()
}

// textContent is textContent(): the text of the node and its
// descendants; a comment's text for a comment.
func (e *element) textContent(sobek.FunctionCall) sobek.Value {
	if e.node.Type == html.CommentNode {
		return e.kit.rt.ToValue(e.node.Data)
	}
	return e.kit.rt.ToValue(nodeText(e.node))
}

// ownerDocument is ownerDocument(): the Element of the document node,
// undefined for the document node itself.
func (e *element) ownerDocument(sobek.FunctionCall) sobek.Value {
	root := e.doc.dom.Nodes[0]
	if e.node == root {
		return sobek.Undefined()
	}
	return e.kit.element(e.doc, root)
}

// toString is toString(): "[object html.Node]".
func (e *element) toString(sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue("[object html.Node]")
}

// childNodes is childNodes(): the Elements of every child node.
func (e *element) childNodes(sobek.FunctionCall) sobek.Value {
	var nodes []*html.Node
	for c := e.node.FirstChild; c != nil; c = c.NextSibling {
		nodes = append(nodes, c)
	}
	return e.kit.elements(e.doc, nodes)
}

// childElements returns the children of the node that are elements.
func (e *element) childElements() []*html.Node {
	var nodes []*html.Node
	for c := nextElement(e.node.FirstChild, next); c != nil; c = nextElement(c.NextSibling, next) {
		nodes = append(nodes, c)
	}
	return nodes
}

// children is children(): the Elements of the child elements.
func (e *element) children(sobek.FunctionCall) sobek.Value {
	return e.kit.elements(e.doc, e.childElements())
}

// childElementCount is childElementCount(): the number of child elements.
func (e *element) childElementCount(sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(len(e.childElements()))
}

// hasChildNodes is hasChildNodes(): whether the node has any child.
func (e *element) hasChildNodes(sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(e.node.FirstChild != nil)
}

// classList is classList(): the class names, in an array.
func (e *element) classList(sobek.FunctionCall) sobek.Value {
	v, _ := attr(e.node, "class")
	return e.kit.rt.ToValue(strings2any(strings.Fields(v)))
}

// className is className(): the class attribute, undefined when there is
// none.
func (e *element) className(sobek.FunctionCall) sobek.Value {
	return e.optAttr("class")
}

// lang is lang(): the lang attribute, undefined when there is none.
func (e *element) lang(sobek.FunctionCall) sobek.Value {
	return e.optAttr("lang")
}

// optAttr returns the attribute name, undefined when there is none.
func (e *element) optAttr(name string) sobek.Value {
	v, ok := attr(e.node, name)
	if !ok {
		return sobek.Undefined()
	}
	return e.kit.rt.ToValue(v)
}

// hasAttribute is hasAttribute(name).
func (e *element) hasAttribute(call sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(hasAttr(e.node, e.kit.str("Element.hasAttribute", "name", call.Argument(0))))
}

// getAttribute is getAttribute(name): the value, undefined when there is
// none.
func (e *element) getAttribute(call sobek.FunctionCall) sobek.Value {
	return e.optAttr(e.kit.str("Element.getAttribute", "name", call.Argument(0)))
}

// hasAttributes is hasAttributes(): whether the node has any attribute.
func (e *element) hasAttributes(sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(len(e.node.Attr) > 0)
}
