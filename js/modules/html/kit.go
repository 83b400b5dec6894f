package k6html

import (
	"net/url"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	"golang.org/x/net/html"
)

// Kit makes the Selection and Element objects of one runtime. Their
// methods live once on shared prototypes; each object is a dynamic object
// whose Go value (a *selection or an *element) the methods find through
// Export, so that objects made by two kits of the same runtime (the
// k6/html module's and k6/http's) work together. A Kit must only be used
// on its runtime's goroutine.
type Kit struct {
	rt        *sobek.Runtime
	selection *sobek.Object
	// elementProtos are the Element prototypes by tag name: "" is the plain
	// Element's, a tag with methods of its own (a, form, select, …) has
	// one that inherits from it, made on first use.
	elementProtos map[string]*sobek.Object
	// tags are tagMethods (a field, so that making an Element does not
	// refer to the table whose methods make Elements).
	tags map[string]map[string]method[*element]
}

// NewKit returns the kit of rt.
func NewKit(rt *sobek.Runtime) *Kit {
	k := &Kit{rt: rt, elementProtos: map[string]*sobek.Object{}, tags: tagMethods}
	k.selection = prototype(k, nil, "Selection", selectionMethods)
	k.elementProtos[""] = prototype(k, nil, "Element", elementMethods)
	return k
}

// Parse parses src as an HTML document and returns the Selection of its
// document node. base, when not nil, is the URL the page came from: the
// hyperlink methods of its elements resolve relative URLs against it.
func (k *Kit) Parse(src string, base *url.URL) sobek.Value {
	root, err := html.Parse(strings.NewReader(src))
	if err != nil { // a strings.Reader does not fail, and the parser does not either
		panic(k.rt.NewGoError(err))
	}
	doc := &document{dom: goquery.NewDocumentFromNode(root), base: base}
	return k.wrap(doc, doc.dom.Selection)
}

// document is one parsed page: the goquery document and the URL it came
// from (nil for parseHTML).
type document struct {
	dom  *goquery.Document
	base *url.URL
}

// node returns the single-node Selection of n, a node of the document.
func (d *document) node(n *html.Node) *goquery.Selection {
	if n == d.dom.Nodes[0] {
		return d.dom.Selection
	}
	return d.dom.FindNodes(n)
}

// method is a JavaScript method of a Selection or Element: it receives
// the Go value behind `this`.
type method[T any] func(this T, call sobek.FunctionCall) sobek.Value

// prototype returns a new object inheriting from parent (Object.prototype
// when nil) with methods, each of which throws a TypeError when called on
// anything but an object of class.
func prototype[T any](k *Kit, parent *sobek.Object, class string, methods map[string]method[T]) *sobek.Object {
	proto := k.rt.NewObject()
	if parent != nil {
		_ = proto.SetPrototype(parent)
	}
	for name, m := range methods {
		fn := func(call sobek.FunctionCall) sobek.Value {
			this, ok := exportOf[T](call.This)
			if !ok {
				panic(k.rt.NewTypeError("%s.%s: called on %s, not a %s", class, name, modules.TypeName(call.This), class))
			}
			return m(this, call)
		}
		// Not enumerable, as the methods of built-in prototypes.
		_ = proto.DefineDataProperty(name, k.rt.ToValue(fn), sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
	}
	return proto
}

// exportOf returns the Go value of type T behind a JavaScript value.
func exportOf[T any](v sobek.Value) (T, bool) {
	var zero T
	if v == nil {
		return zero, false
	}
	x, ok := v.Export().(T)
	return x, ok
}

// opaque is the DynamicObject side of the objects a Kit makes: they have
// no own properties (their methods are on their prototype) and take none.
type opaque struct{}

// Get returns nil: the object has no own property.
func (opaque) Get(string) sobek.Value { return nil }

// Set refuses the property.
func (opaque) Set(string, sobek.Value) bool { return false }

// Has reports false: the object has no own property.
func (opaque) Has(string) bool { return false }

// Delete reports true: there is no own property to keep.
func (opaque) Delete(string) bool { return true }

// Keys returns no key.
func (opaque) Keys() []string { return nil }
