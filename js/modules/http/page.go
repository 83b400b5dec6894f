package k6http

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/js/modules"
	k6html "github.com/usefullatency/usefullatency/js/modules/html"
)

// errNoPage is the error of html(), submitForm() and clickLink() on a
// response without a body.
var errNoPage = errors.New("the response has no body (responseType \"none\" or a failed request)")

// page is what the methods of a response read: its body as JSON
// (Response.json()) or as an HTML page (Response.html(), submitForm() and
// clickLink()). The body is parsed when a method is called; submitForm and
// clickLink send their request with the VU's client, as any other request
// of the VU.
type page struct {
	h      *HTTP
	rtype  responseType
	body   []byte
	url    string
	parsed sobek.Value // the document's Selection, once html() made it
}

// pageMethods are json, html, submitForm and clickLink, once per VU on
// the prototype of its responses (a response allocates no function of its
// own); each response keeps its page on the Go side.
type pageMethods struct {
	proto *sobek.Object
}

// addPageMethods gives the response obj, backed by r, its methods: obj
// inherits them, and r keeps its page.
func (h *HTTP) addPageMethods(obj *sobek.Object, r *response) {
	r.page = &page{h: h, rtype: r.req.responseType, body: r.ex.body, url: r.ex.url}
	_ = obj.SetPrototype(h.pageMethods().proto)
}

// pageMethods returns the VU's page methods, made on first use.
func (h *HTTP) pageMethods() *pageMethods {
	if h.pages != nil {
		return h.pages
	}
	rt := h.vu.Runtime()
	pm := &pageMethods{proto: rt.NewObject()}
	for name, m := range map[string]func(*page, sobek.FunctionCall) sobek.Value{
		"json": (*page).json, "html": (*page).html, "submitForm": (*page).submitForm, "clickLink": (*page).clickLink,
	} {
		fn := func(call sobek.FunctionCall) sobek.Value {
			var p *page
			if obj, ok := call.This.(*sobek.Object); ok {
				if r, ok := obj.Export().(*response); ok {
					p = r.page
				}
			}
			if p == nil {
				panic(rt.NewTypeError("Response.%s: called on %s, not a response", name, modules.TypeName(call.This)))
			}
			return m(p, call)
		}
		_ = pm.proto.DefineDataProperty(name, rt.ToValue(fn), sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
	}
	h.pages = pm
	return pm
}

// throw throws err, prefixed with the module and method, as a script
// exception.
func (p *page) throw(method string, err error) {
	panic(p.h.vu.Runtime().NewGoError(fmt.Errorf("k6/http: %s(): %w", method, err)))
}

// base returns the URL of the response, the base of the page's relative
// URLs.
func (p *page) base() *url.URL {
	u, err := url.Parse(p.url)
	if err != nil {
		return nil
	}
	return u
}

// html is Response.html(selector?): the Selection of the page's document
// (k6/html), or, with a selector, Selection.find(selector) on it.
func (p *page) html(call sobek.FunctionCall) sobek.Value {
	if p.rtype == asNone || p.body == nil {
		p.throw("html", errNoPage)
	}
	if p.parsed == nil {
		p.parsed = p.h.htmlKit().Parse(string(p.body), p.base())
	}
	if isNullish(call.Argument(0)) {
		return p.parsed
	}
	doc := p.parsed.ToObject(p.h.vu.Runtime())
	find, _ := sobek.AssertFunction(doc.Get("find"))
	v, err := find(doc, call.Argument(0))
	if err != nil {
		panic(err)
	}
	return v
}

// json is Response.json(selector?) (see jsonValue).
func (p *page) json(call sobek.FunctionCall) sobek.Value {
	v, err := jsonValue(p.h.vu.Runtime(), p.rtype, p.body, call.Argument(0))
	if err != nil {
		panic(p.h.vu.Runtime().NewGoError(err))
	}
	return v
}

// htmlKit returns the VU's k6/html kit, made on first use.
func (h *HTTP) htmlKit() *k6html.Kit {
	if h.kit == nil {
		h.kit = k6html.NewKit(h.vu.Runtime())
	}
	return h.kit
}

// dom parses the page for submitForm and clickLink.
func (p *page) dom(method string) *goquery.Selection {
	if p.rtype == asNone || p.body == nil {
		p.throw(method, errNoPage)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(p.body)))
	if err != nil {
		p.throw(method, err)
	}
	return doc.Selection
}

// pageArgs reads the object argument of submitForm or clickLink: its
// string members with their defaults, and params, passed on as given.
type pageArgs struct {
	rt     *sobek.Runtime
	method string
	obj    *sobek.Object
}

// newPageArgs checks the argument of method: an object, or nothing.
func newPageArgs(rt *sobek.Runtime, method string, v sobek.Value) pageArgs {
	a := pageArgs{rt: rt, method: method}
	if isNullish(v) {
		return a
	}
	obj, ok := v.(*sobek.Object)
	if !ok {
		panic(rt.NewTypeError("%s: the argument must be an object, not %s", method, modules.TypeName(v)))
	}
	a.obj = obj
	return a
}

// get returns the member name, undefined when absent.
func (a pageArgs) get(name string) sobek.Value {
	if a.obj == nil {
		return sobek.Undefined()
	}
	if v := a.obj.Get(name); v != nil {
		return v
	}
	return sobek.Undefined()
}

// selector returns the member name compiled as a CSS selector, def when
// absent.
func (a pageArgs) selector(name, def string) (cascadia.Selector, string) {
	text := def
	if v := a.get(name); !isNullish(v) {
		if !sobek.IsString(v) {
			panic(a.rt.NewTypeError("%s: %s must be a string, not %s", a.method, name, modules.TypeName(v)))
		}
		text = v.String()
	}
	m, err := cascadia.Compile(text)
	if err != nil {
		panic(a.rt.NewTypeError("%s: %s %q is not a valid selector: %v", a.method, name, text, err))
	}
	return m, text
}

// clickLink is Response.clickLink({selector, params}): a GET of the href
// of the first element that matches selector ("a[href]" by default),
// resolved against the response URL, with params; it returns that
// request's response.
func (p *page) clickLink(call sobek.FunctionCall) sobek.Value {
	rt := p.h.vu.Runtime()
	args := newPageArgs(rt, "clickLink", call.Argument(0))
	m, text := args.selector("selector", "a[href]")
	link := p.dom("clickLink").FindMatcher(m).First()
	if link.Length() == 0 {
		p.throw("clickLink", fmt.Errorf("no element matches %q", text))
	}
	href, ok := link.Attr("href")
	if !ok {
		p.throw("clickLink", fmt.Errorf("the element that matches %q has no href", text))
	}
	target, err := p.resolve(href)
	if err != nil {
		p.throw("clickLink", err)
	}
	return p.send(http.MethodGet, target.String(), sobek.Undefined(), args.get("params"))
}

// resolve resolves ref, a URL of the page, against the response URL.
func (p *page) resolve(ref string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return nil, fmt.Errorf("the URL %q does not parse: %w", redact.URL(ref), redact.Error(err))
	}
	if base := p.base(); base != nil {
		u = base.ResolveReference(u)
	}
	return u, nil
}

// send sends a request of the VU and returns its response, throwing what
// the request throws.
func (p *page) send(method, target string, body, params sobek.Value) sobek.Value {
	v, err := p.h.request(method, p.h.vu.Runtime().ToValue(target), body, params)
	if err != nil {
		panic(p.h.vu.Runtime().NewGoError(err))
	}
	return v
}
