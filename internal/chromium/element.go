package chromium

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/chromedp/cdproto/runtime"
)

// Handle refers to a value that lives in the page (k6's JSHandle). It is
// valid until its document goes away or Dispose.
type Handle struct {
	p   *Page
	obj *runtime.RemoteObject
}

// Element is a handle of a DOM element (k6's ElementHandle). Unlike a
// Locator it keeps its element: actions fail once the element left the
// document.
type Element struct {
	Handle
	actions
}

var _ subject = (*Element)(nil)

// handle wraps a remote object of the page.
func (p *Page) handle(obj *runtime.RemoteObject) *Handle { return &Handle{p: p, obj: obj} }

// element wraps a remote DOM node of the page; nil when obj is not one.
func (p *Page) element(obj *runtime.RemoteObject) *Element {
	if obj == nil || obj.Subtype != runtime.RemoteObjectSubtypeNode || obj.ObjectID == "" {
		return nil
	}
	el := &Element{Handle: Handle{p: p, obj: obj}}
	el.actions = actions{el}
	return el
}

// Page returns the page the handle belongs to.
func (h *Handle) Page() *Page { return h.p }

// AsElement returns the handle as an element handle, or nil when its
// value is not a DOM element.
func (h *Handle) AsElement() *Element { return h.p.element(h.obj) }

// JSONValue returns the handle's value as JSON (nil for undefined).
func (h *Handle) JSONValue(ctx context.Context) (json.RawMessage, error) {
	if h.obj.ObjectID == "" {
		return jsonOf(h.obj), nil
	}
	return h.p.EvaluateJSON(ctx, `v => v`, h)
}

// Evaluate calls fn in the page with the handle's value and args, and
// returns its JSON result.
func (h *Handle) Evaluate(ctx context.Context, fn string, args ...any) (json.RawMessage, error) {
	return h.p.EvaluateJSON(ctx, fn, append([]any{h}, args...)...)
}

// EvaluateHandle is Evaluate returning a handle of the result.
func (h *Handle) EvaluateHandle(ctx context.Context, fn string, args ...any) (*Handle, error) {
	return h.p.EvaluateHandle(ctx, fn, append([]any{h}, args...)...)
}

// Dispose lets the page forget the value.
func (h *Handle) Dispose(ctx context.Context) error {
	if h.obj.ObjectID == "" {
		return nil
	}
	_, err := call(ctx, h.p, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: h.obj.ObjectID})
	return err
}

// String describes the value, as the DevTools console would.
func (h *Handle) String() string { return remoteText(h.obj) }

func (e *Element) page() *Page { return e.p }

func (e *Element) prepare(req *request) { req.Name = "element" }

func (e *Element) remote() *runtime.RemoteObject { return e.obj }

func (e *Element) name() string { return "the element" }

// items returns the elements of a remote array, in order.
func (p *Page) items(ctx context.Context, arr *runtime.RemoteObject) ([]*runtime.RemoteObject, error) {
	if arr == nil || arr.ObjectID == "" {
		return nil, nil
	}
	res, err := call(ctx, p, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: arr.ObjectID, OwnProperties: ptr(true)})
	if err != nil {
		return nil, err
	}
	out := []*runtime.RemoteObject{}
	for _, d := range res.Result {
		i, err := strconv.Atoi(d.Name)
		if err != nil || i < 0 || d.Value == nil {
			continue
		}
		for len(out) <= i {
			out = append(out, nil)
		}
		out[i] = d.Value
	}
	return out, nil
}

// Query returns a handle of the first element that selector matches now,
// or nil (k6's page.$).
func (p *Page) Query(ctx context.Context, selector string) (*Element, error) {
	return p.Locator(selector, LocatorOptions{}).Strict(false).Element(ctx, "none")
}

// QueryAll returns a handle of each element selector matches now (k6's
// page.$$).
func (p *Page) QueryAll(ctx context.Context, selector string) ([]*Element, error) {
	return p.Locator(selector, LocatorOptions{}).Strict(false).Elements(ctx)
}

// WaitForSelector waits until the first element selector matches is in
// state ("attached", "detached", "visible" or "hidden") and returns it;
// nil for "detached" and "hidden".
func (p *Page) WaitForSelector(ctx context.Context, selector, state string) (*Element, error) {
	el, err := p.Locator(selector, LocatorOptions{}).Strict(false).Element(ctx, state)
	if state == "detached" || state == "hidden" {
		return nil, err
	}
	return el, err
}
