// Package k6html is the "k6/html" JavaScript module: parseHTML(src) parses
// a page with golang.org/x/net/html and returns k6's Selection, the
// jQuery-like read-only view of the document that goquery implements, and
// Selection.get returns k6's Element, a DOM-like view of one node. The
// package also serves k6/http: Response.html() builds its Selection with a
// Kit, and Response.submitForm reads a form's fields with FormFields. The
// package is named after the module's import path, like k6metrics.
package k6html

import (
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// Name is the module's import specifier.
const Name = "k6/html"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newHTML) }

// newHTML instantiates the "k6/html" module in vu: parseHTML, as the
// default export's member and as a named export.
func newHTML(vu modules.VU) modules.Instance {
	kit := NewKit(vu.Runtime())
	named := map[string]any{"parseHTML": func(call sobek.FunctionCall) sobek.Value {
		src := call.Argument(0)
		if !sobek.IsString(src) {
			panic(kit.rt.NewTypeError("parseHTML: src must be a string, not %s", modules.TypeName(src)))
		}
		return kit.Parse(src.String(), nil)
	}}
	return modules.Static{Default: named, Named: named}
}
