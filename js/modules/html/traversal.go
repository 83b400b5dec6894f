package k6html

import (
	"github.com/PuerkitoBio/goquery"
	"github.com/grafana/sobek"
)

// The methods below move through the document from the nodes of a
// Selection. An optional selector argument (undefined or null when left
// out) keeps only the nodes that match it.

// find is find(selector): the descendants that match selector, a string
// or a Selection.
func (s *selection) find(call sobek.FunctionCall) sobek.Value {
	m, other := s.selectorOrSelection("Selection.find", call.Argument(0))
	if other != nil {
		return s.derive(s.sel.FindSelection(other.sel))
	}
	return s.derive(s.sel.FindMatcher(m))
}

// single is single(selector): the first descendant that matches selector,
// as a Selection of at most one node.
func (s *selection) single(call sobek.FunctionCall) sobek.Value {
	m := s.kit.matcher("Selection.single", call.Argument(0))
	return s.derive(s.sel.FindMatcher(goquery.SingleMatcher(m)))
}

// children is children(selector?): the child elements.
func (s *selection) children(call sobek.FunctionCall) sobek.Value {
	return s.derive(filtered(s.sel.Children(), s.kit.optMatcher("Selection.children", call.Argument(0))))
}

// contents is contents(): the child nodes, text and comments included.
func (s *selection) contents(sobek.FunctionCall) sobek.Value {
	return s.derive(s.sel.Contents())
}

// closest is closest(selector): for each node, the first of itself and
// its ancestors that matches selector, a string or a Selection.
func (s *selection) closest(call sobek.FunctionCall) sobek.Value {
	m, other := s.selectorOrSelection("Selection.closest", call.Argument(0))
	if other != nil {
		return s.derive(s.sel.ClosestSelection(other.sel))
	}
	return s.derive(s.sel.ClosestMatcher(m))
}

// has is has(selector): the nodes that have a descendant matching
// selector, a string or a Selection.
func (s *selection) has(call sobek.FunctionCall) sobek.Value {
	m, other := s.selectorOrSelection("Selection.has", call.Argument(0))
	if other != nil {
		return s.derive(s.sel.HasSelection(other.sel))
	}
	return s.derive(s.sel.HasMatcher(m))
}

// next is next(selector?): the element right after each node.
func (s *selection) next(call sobek.FunctionCall) sobek.Value {
	return s.derive(filtered(s.sel.Next(), s.kit.optMatcher("Selection.next", call.Argument(0))))
}

// nextAll is nextAll(selector?): every element after each node.
func (s *selection) nextAll(call sobek.FunctionCall) sobek.Value {
	return s.derive(filtered(s.sel.NextAll(), s.kit.optMatcher("Selection.nextAll", call.Argument(0))))
}

// prev is prev(selector?): the element right before each node.
func (s *selection) prev(call sobek.FunctionCall) sobek.Value {
	return s.derive(filtered(s.sel.Prev(), s.kit.optMatcher("Selection.prev", call.Argument(0))))
}

// prevAll is prevAll(selector?): every element before each node, nearest
// first.
func (s *selection) prevAll(call sobek.FunctionCall) sobek.Value {
	return s.derive(filtered(s.sel.PrevAll(), s.kit.optMatcher("Selection.prevAll", call.Argument(0))))
}

// parent is parent(selector?): the parent of each node.
func (s *selection) parent(call sobek.FunctionCall) sobek.Value {
	return s.derive(filtered(s.sel.Parent(), s.kit.optMatcher("Selection.parent", call.Argument(0))))
}

// parents is parents(selector?): the ancestors of each node, nearest
// first.
func (s *selection) parents(call sobek.FunctionCall) sobek.Value {
	return s.derive(filtered(s.sel.Parents(), s.kit.optMatcher("Selection.parents", call.Argument(0))))
}

// nextUntil is nextUntil(until?, filter?): the elements after each node
// up to, not including, the first that matches until (a selector or a
// Selection; all of them when left out), kept when they match filter.
func (s *selection) nextUntil(call sobek.FunctionCall) sobek.Value {
	return s.until("Selection.nextUntil", call, untilMoves{
		all: (*goquery.Selection).NextAll, matcher: (*goquery.Selection).NextUntilMatcher,
		selection: (*goquery.Selection).NextUntilSelection,
	})
}

// prevUntil is prevUntil(until?, filter?): nextUntil's mirror, nearest
// first.
func (s *selection) prevUntil(call sobek.FunctionCall) sobek.Value {
	return s.until("Selection.prevUntil", call, untilMoves{
		all: (*goquery.Selection).PrevAll, matcher: (*goquery.Selection).PrevUntilMatcher,
		selection: (*goquery.Selection).PrevUntilSelection,
	})
}

// parentsUntil is parentsUntil(until?, filter?): the ancestors of each
// node up to, not including, the first that matches until.
func (s *selection) parentsUntil(call sobek.FunctionCall) sobek.Value {
	return s.until("Selection.parentsUntil", call, untilMoves{
		all: (*goquery.Selection).Parents, matcher: (*goquery.Selection).ParentsUntilMatcher,
		selection: (*goquery.Selection).ParentsUntilSelection,
	})
}

// untilMoves are the goquery moves of one …Until method: without a
// bound, up to a matching node, up to a node of a Selection.
type untilMoves struct {
	all       func(*goquery.Selection) *goquery.Selection
	matcher   func(*goquery.Selection, goquery.Matcher) *goquery.Selection
	selection func(*goquery.Selection, *goquery.Selection) *goquery.Selection
}

// until runs the …Until method named method with its until and filter
// arguments.
func (s *selection) until(method string, call sobek.FunctionCall, moves untilMoves) sobek.Value {
	bound, filter := call.Argument(0), s.kit.optMatcher(method, call.Argument(1))
	var out *goquery.Selection
	if other, ok := selectionArg(bound); ok {
		out = moves.selection(s.sel, other.sel)
	} else if absent(bound) {
		out = moves.all(s.sel)
	} else {
		out = moves.matcher(s.sel, s.kit.matcher(method, bound))
	}
	return s.derive(filtered(out, filter))
}

// selectorOrSelection returns the argument of method that is a selector
// (compiled) or a Selection.
func (s *selection) selectorOrSelection(method string, v sobek.Value) (goquery.Matcher, *selection) {
	if other, ok := selectionArg(v); ok {
		return nil, other
	}
	if !sobek.IsString(v) {
		s.kit.throwType(method, "selector", "a string or a Selection", v)
	}
	return s.kit.matcher(method, v), nil
}

// filtered returns the nodes of sel that match m; all of them when m is
// nil.
func filtered(sel *goquery.Selection, m goquery.Matcher) *goquery.Selection {
	if m == nil {
		return sel
	}
	return sel.FilterMatcher(m)
}
