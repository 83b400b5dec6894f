package k6http

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	k6html "github.com/usefullatency/usefullatency/js/modules/html"
)

// submitForm is Response.submitForm({formSelector, fields,
// submitSelector, params}): it fills in and submits the first form that
// matches formSelector ("form" by default), as a browser would, and
// returns the response. The form submits its fields (k6html.FormFields),
// the name and value of its first element matching submitSelector
// ('[type="submit"]' by default) when that has a name, and fields' members
// in the place of the fields of those names (added when the form has
// none; an array member gives the name once per element). A form whose
// method is POST sends them as an application/x-www-form-urlencoded body,
// any other as the query of its action URL (resolved against the response
// URL; the response URL itself when the form has no action), with params.
func (p *page) submitForm(call sobek.FunctionCall) sobek.Value {
	rt := p.h.vu.Runtime()
	args := newPageArgs(rt, "submitForm", call.Argument(0))
	formMatch, formText := args.selector("formSelector", "form")
	submitMatch, _ := args.selector("submitSelector", `[type="submit"]`)
	overrides := args.fields()
	form := p.dom("submitForm").FindMatcher(formMatch).First()
	if form.Length() == 0 {
		p.throw("submitForm", fmt.Errorf("no form matches %q", formText))
	}
	fields := k6html.FormFields(form)
	if button := form.FindMatcher(submitMatch).First(); button.Length() > 0 {
		if name, _ := button.Attr("name"); name != "" {
			value, _ := button.Attr("value")
			fields = append(fields, k6html.Field{Name: name, Value: value})
		}
	}
	fields = override(fields, overrides)
	action, _ := form.Attr("action")
	target, err := p.resolve(action)
	if err != nil {
		p.throw("submitForm", err)
	}
	method, _ := form.Attr("method")
	if !strings.EqualFold(method, http.MethodPost) {
		target.RawQuery = queryOf(fields)
		return p.send(http.MethodGet, target.String(), sobek.Undefined(), args.get("params"))
	}
	return p.send(http.MethodPost, target.String(), formObject(rt, fields), args.get("params"))
}

// fields returns the fields member of submitForm's argument: its names
// with their values in order, an array member giving several values.
func (a pageArgs) fields() []k6html.Field {
	v := a.get("fields")
	if isNullish(v) {
		return nil
	}
	obj, ok := v.(*sobek.Object)
	if !ok {
		panic(a.rt.NewTypeError("%s: fields must be an object, not %s", a.method, modules.TypeName(v)))
	}
	var out []k6html.Field
	for _, name := range obj.Keys() {
		value := obj.Get(name)
		if list, ok := value.Export().([]any); ok {
			for _, x := range list {
				out = append(out, k6html.Field{Name: name, Value: fmt.Sprint(x)})
			}
			continue
		}
		out = append(out, k6html.Field{Name: name, Value: value.String()})
	}
	return out
}

// override returns fields with the fields of overrides in the place of
// those of the same name: at the first of them, or at the end when the
// form has none.
func override(fields, overrides []k6html.Field) []k6html.Field {
	byName := map[string][]k6html.Field{}
	var added []string
	for _, f := range overrides {
		if _, ok := byName[f.Name]; !ok {
			added = append(added, f.Name)
		}
		byName[f.Name] = append(byName[f.Name], f)
	}
	var out []k6html.Field
	for _, f := range fields {
		repl, ok := byName[f.Name]
		switch {
		case !ok:
			out = append(out, f)
		case repl != nil:
			out = append(out, repl...)
			byName[f.Name] = nil // placed: later fields of the name go
		}
	}
	for _, name := range added {
		out = append(out, byName[name]...)
	}
	return out
}

// queryOf encodes fields as a query, in their order.
func queryOf(fields []k6html.Field) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = url.QueryEscape(f.Name) + "=" + url.QueryEscape(f.Value)
	}
	return strings.Join(parts, "&")
}

// formObject returns fields as the object body k6/http sends as a form: a
// name with several values has the array of them.
func formObject(rt *sobek.Runtime, fields []k6html.Field) *sobek.Object {
	values := map[string][]any{}
	var order []string
	for _, f := range fields {
		if _, ok := values[f.Name]; !ok {
			order = append(order, f.Name)
		}
		values[f.Name] = append(values[f.Name], f.Value)
	}
	obj := rt.NewObject()
	for _, name := range order {
		if vs := values[name]; len(vs) == 1 {
			_ = obj.Set(name, vs[0])
		} else {
			_ = obj.Set(name, vs)
		}
	}
	return obj
}
