package k6html

import (
	"github.com/grafana/sobek"
	"golang.org/x/net/html"
)

// Namespace URIs of the elements and attributes the HTML parser makes.
var namespaces = map[string]string{
	"": "http://www.w3.org/1999/xhtml", "svg": "http://www.w3.org/2000/svg",
	"math": "http://www.w3.org/1998/Math/MathML", "xlink": "http://www.w3.org/1999/xlink",
	"xml": "http://www.w3.org/XML/1998/namespace", "xmlns": "http://www.w3.org/2000/xmlns/",
}

// attributes is attributes(): the node's attributes in an object keyed by
// name, each an Attribute (see attribute).
func (e *element) attributes(sobek.FunctionCall) sobek.Value {
	obj := e.kit.rt.NewObject()
	for _, a := range e.node.Attr {
		attr := e.attribute(a)
		_ = obj.Set(attr.Get("name").String(), attr)
	}
	return obj
}

// getAttributeNode is getAttributeNode(name): the Attribute name,
// undefined when there is none.
func (e *element) getAttributeNode(call sobek.FunctionCall) sobek.Value {
	name := e.kit.str("Element.getAttributeNode", "name", call.Argument(0))
	for _, a := range e.node.Attr {
		if a.Namespace == "" && a.Key == name {
			return e.attribute(a)
		}
	}
	return sobek.Undefined()
}

// attribute returns the Attribute object of a: its name (prefix:name for
// a namespaced one such as xlink:href), value and ownerElement, and the
// methods localName(), namespaceURI() and prefix().
func (e *element) attribute(a html.Attribute) *sobek.Object {
	rt := e.kit.rt
	obj := rt.NewObject()
	name := a.Key
	if a.Namespace != "" {
		name = a.Namespace + ":" + a.Key
	}
	_ = obj.Set("name", name)
	_ = obj.Set("value", a.Val)
	_ = obj.Set("ownerElement", e.kit.element(e.doc, e.node))
	_ = obj.Set("localName", func() string { return a.Key })
	_ = obj.Set("prefix", func() string { return a.Namespace })
	_ = obj.Set("namespaceURI", func() string {
		if a.Namespace == "" {
			return ""
		}
		return namespaces[a.Namespace]
	})
	return obj
}

// namespaceURI is namespaceURI(): the namespace of an element (XHTML's
// for HTML elements, SVG's, MathML's).
func (e *element) namespaceURI(sobek.FunctionCall) sobek.Value {
	if e.node.Type != html.ElementNode {
		return sobek.Undefined()
	}
	return e.kit.rt.ToValue(namespaces[e.node.Namespace])
}

// isDefaultNamespace is isDefaultNamespace(uri?): whether uri is the
// element's namespace; without uri, whether the element is in the
// default (XHTML) namespace.
func (e *element) isDefaultNamespace(call sobek.FunctionCall) sobek.Value {
	ns := namespaces[e.node.Namespace]
	if absent(call.Argument(0)) {
		return e.kit.rt.ToValue(e.node.Type == html.ElementNode && e.node.Namespace == "")
	}
	uri := e.kit.str("Element.isDefaultNamespace", "namespaceURI", call.Argument(0))
	return e.kit.rt.ToValue(e.node.Type == html.ElementNode && uri == ns)
}
