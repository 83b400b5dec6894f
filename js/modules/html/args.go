package k6html

import (
	"math"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// The argument checks below throw, naming the method (as "Selection.find")
// and the argument: a TypeError for a value of the wrong type, an Error
// for a selector that does not parse.

// throwType throws a TypeError "method: arg must be want, not <type of v>".
func (k *Kit) throwType(method, arg, want string, v sobek.Value) {
	panic(k.rt.NewTypeError("%s: %s must be %s, not %s", method, arg, want, modules.TypeName(v)))
}

// absent reports whether an optional argument was left out (undefined or
// null).
func absent(v sobek.Value) bool {
	return v == nil || sobek.IsUndefined(v) || sobek.IsNull(v)
}

// str returns the string argument arg of method.
func (k *Kit) str(method, arg string, v sobek.Value) string {
	if !sobek.IsString(v) {
		k.throwType(method, arg, "a string", v)
	}
	return v.String()
}

// matcher compiles the CSS selector argument of method.
func (k *Kit) matcher(method string, v sobek.Value) goquery.Matcher {
	sel := k.str(method, "selector", v)
	m, err := cascadia.Compile(sel)
	if err != nil {
		panic(k.rt.NewGoError(&selectorError{method: method, selector: sel, err: err}))
	}
	return m
}

// selectorError is a selector that does not parse.
type selectorError struct {
	method, selector string
	err              error
}

func (e *selectorError) Error() string {
	return e.method + ": invalid selector " + quote(e.selector) + ": " + e.err.Error()
}

func (e *selectorError) Unwrap() error { return e.err }

// quote returns s in double quotes.
func quote(s string) string { return `"` + s + `"` }

// optMatcher compiles an optional selector argument; nil when absent.
func (k *Kit) optMatcher(method string, v sobek.Value) goquery.Matcher {
	if absent(v) {
		return nil
	}
	return k.matcher(method, v)
}

// function returns the function argument arg of method.
func (k *Kit) function(method, arg string, v sobek.Value) sobek.Callable {
	fn, ok := sobek.AssertFunction(v)
	if !ok {
		k.throwType(method, arg, "a function", v)
	}
	return fn
}

// integer returns the number argument arg of method, truncated to an
// integer (NaN is 0, as JavaScript's ToIntegerOrInfinity makes it).
func (k *Kit) integer(method, arg string, v sobek.Value) int {
	if !sobek.IsNumber(v) {
		k.throwType(method, arg, "a number", v)
	}
	f := v.ToFloat()
	switch {
	case math.IsNaN(f):
		return 0
	case f > math.MaxInt32:
		return math.MaxInt32
	case f < math.MinInt32:
		return math.MinInt32
	}
	return int(f)
}

// selectionArg returns the Selection behind v, if it is one.
func selectionArg(v sobek.Value) (*selection, bool) {
	return exportOf[*selection](v)
}

// elementArg returns the Element behind v, if it is one.
func elementArg(v sobek.Value) (*element, bool) {
	return exportOf[*element](v)
}
