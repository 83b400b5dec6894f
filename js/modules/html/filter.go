package k6html

import (
	"github.com/PuerkitoBio/goquery"
	"github.com/grafana/sobek"
)

// filter is filter(test): the nodes that pass test, a selector, a
// Selection (its nodes) or a function(index, selection) whose result is
// truthy.
func (s *selection) filter(call sobek.FunctionCall) sobek.Value {
	return s.derive(s.test("Selection.filter", call.Argument(0), filterMoves))
}

// not is not(test): the nodes that do not pass test, as filter takes it.
func (s *selection) not(call sobek.FunctionCall) sobek.Value {
	return s.derive(s.test("Selection.not", call.Argument(0), notMoves))
}

// is is is(test): whether at least one node passes test, as filter takes
// it.
func (s *selection) is(call sobek.FunctionCall) sobek.Value {
	return s.kit.rt.ToValue(s.test("Selection.is", call.Argument(0), filterMoves).Length() > 0)
}

// testMoves are the goquery moves of filter or not, by the kind of test.
type testMoves struct {
	matcher   func(*goquery.Selection, goquery.Matcher) *goquery.Selection
	selection func(*goquery.Selection, *goquery.Selection) *goquery.Selection
	function  func(*goquery.Selection, func(int, *goquery.Selection) bool) *goquery.Selection
}

var (
	filterMoves = testMoves{
		matcher: (*goquery.Selection).FilterMatcher, selection: (*goquery.Selection).FilterSelection,
		function: (*goquery.Selection).FilterFunction,
	}
	notMoves = testMoves{
		matcher: (*goquery.Selection).NotMatcher, selection: (*goquery.Selection).NotSelection,
		function: (*goquery.Selection).NotFunction,
	}
)

// test applies the test argument of method with moves.
func (s *selection) test(method string, v sobek.Value, moves testMoves) *goquery.Selection {
	if other, ok := selectionArg(v); ok {
		return moves.selection(s.sel, other.sel)
	}
	if fn, ok := sobek.AssertFunction(v); ok {
		return moves.function(s.sel, func(i int, one *goquery.Selection) bool {
			this := s.derive(one)
			ret, err := fn(this, s.kit.rt.ToValue(i), this)
			if err != nil {
				panic(err)
			}
			return ret.ToBoolean()
		})
	}
	if !sobek.IsString(v) {
		s.kit.throwType(method, "the argument", "a selector, a Selection or a function", v)
	}
	return moves.matcher(s.sel, s.kit.matcher(method, v))
}
