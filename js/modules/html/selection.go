package k6html

import (
	"github.com/PuerkitoBio/goquery"
	"github.com/grafana/sobek"
)

// selection is the Go value behind a JavaScript Selection: a set of nodes
// of one document, in document order. It is never modified: every method
// that narrows or moves the set returns a new Selection.
type selection struct {
	opaque
	kit *Kit
	doc *document
	sel *goquery.Selection
}

// wrap returns the JavaScript Selection of sel, a set of nodes of doc.
func (k *Kit) wrap(doc *document, sel *goquery.Selection) sobek.Value {
	obj := k.rt.NewDynamicObject(&selection{kit: k, doc: doc, sel: sel})
	_ = obj.SetPrototype(k.selection)
	return obj
}

// derive returns the JavaScript Selection of sel, a set of nodes of the
// same document as s.
func (s *selection) derive(sel *goquery.Selection) sobek.Value {
	return s.kit.wrap(s.doc, sel)
}

// selectionMethods are the methods of k6's Selection, jQuery's names and
// behaviour on a read-only document.
var selectionMethods = map[string]method[*selection]{
	"attr": (*selection).attr, "children": (*selection).children, "closest": (*selection).closest,
	"contents": (*selection).contents, "data": (*selection).data, "each": (*selection).each,
	"eq": (*selection).eq, "filter": (*selection).filter, "find": (*selection).find,
	"first": (*selection).first, "get": (*selection).get, "has": (*selection).has,
	"html": (*selection).html, "is": (*selection).is, "last": (*selection).last, "map": (*selection).mapEach,
	"next": (*selection).next, "nextAll": (*selection).nextAll, "nextUntil": (*selection).nextUntil,
	"not": (*selection).not, "parent": (*selection).parent, "parents": (*selection).parents,
	"parentsUntil": (*selection).parentsUntil, "prev": (*selection).prev, "prevAll": (*selection).prevAll,
	"prevUntil": (*selection).prevUntil, "serialize": (*selection).serialize,
	"serializeArray": (*selection).serializeArray, "serializeObject": (*selection).serializeObject,
	"single": (*selection).single, "size": (*selection).size, "slice": (*selection).slice,
	"text": (*selection).text, "toArray": (*selection).toArray, "val": (*selection).val,
}

// attr is attr(name): the value of the attribute name of the first
// element, undefined when it has none or the Selection is empty.
func (s *selection) attr(call sobek.FunctionCall) sobek.Value {
	name := s.kit.str("Selection.attr", "name", call.Argument(0))
	v, ok := s.sel.Attr(name)
	if !ok {
		return sobek.Undefined()
	}
	return s.kit.rt.ToValue(v)
}

// html is html(): the markup of the first node's content, undefined when
// the Selection is empty.
func (s *selection) html(sobek.FunctionCall) sobek.Value {
	if s.sel.Length() == 0 {
		return sobek.Undefined()
	}
	h, err := s.sel.Html()
	if err != nil {
		panic(s.kit.rt.NewGoError(err))
	}
	return s.kit.rt.ToValue(h)
}

// text is text(): the text of every node and their descendants, joined.
func (s *selection) text(sobek.FunctionCall) sobek.Value {
	return s.kit.rt.ToValue(s.sel.Text())
}

// size is size(): the number of nodes.
func (s *selection) size(sobek.FunctionCall) sobek.Value {
	return s.kit.rt.ToValue(s.sel.Length())
}

// get is get(index): the Element at index (from the end when negative),
// undefined out of range; get() is every Element, in an array.
func (s *selection) get(call sobek.FunctionCall) sobek.Value {
	if absent(call.Argument(0)) {
		out := make([]any, len(s.sel.Nodes))
		for i, n := range s.sel.Nodes {
			out[i] = s.kit.element(s.doc, n)
		}
		return s.kit.rt.NewArray(out...)
	}
	i, ok := position(s.kit.integer("Selection.get", "index", call.Argument(0)), len(s.sel.Nodes))
	if !ok {
		return sobek.Undefined()
	}
	return s.kit.element(s.doc, s.sel.Nodes[i])
}

// position returns the position index names in a list of n, counting
// from the end when negative; ok is false out of range.
func position(index, n int) (int, bool) {
	if index < 0 {
		index += n
	}
	return index, index >= 0 && index < n
}

// toArray is toArray(): a Selection of each node, in an array.
func (s *selection) toArray(sobek.FunctionCall) sobek.Value {
	out := make([]any, s.sel.Length())
	for i := range s.sel.Nodes {
		out[i] = s.derive(s.sel.Eq(i))
	}
	return s.kit.rt.NewArray(out...)
}

// each is each(fn): fn(index, element) for each node in order, with the
// Element as this too; a call that returns false stops the loop. It
// returns the Selection.
func (s *selection) each(call sobek.FunctionCall) sobek.Value {
	fn := s.kit.function("Selection.each", "fn", call.Argument(0))
	for i, n := range s.sel.Nodes {
		el := s.kit.element(s.doc, n)
		ret, err := fn(el, s.kit.rt.ToValue(i), el)
		if err != nil {
			panic(err)
		}
		if ret.StrictEquals(s.kit.rt.ToValue(false)) {
			break
		}
	}
	return call.This
}

// mapEach is map(fn): the values fn(index, selection) returns for each
// node, the node's own Selection also being this, in an array.
func (s *selection) mapEach(call sobek.FunctionCall) sobek.Value {
	fn := s.kit.function("Selection.map", "fn", call.Argument(0))
	out := make([]any, 0, s.sel.Length())
	for i := range s.sel.Nodes {
		one := s.derive(s.sel.Eq(i))
		ret, err := fn(one, s.kit.rt.ToValue(i), one)
		if err != nil {
			panic(err)
		}
		out = append(out, ret)
	}
	return s.kit.rt.NewArray(out...)
}

// eq is eq(index): the node at index (from the end when negative), or an
// empty Selection.
func (s *selection) eq(call sobek.FunctionCall) sobek.Value {
	i, ok := position(s.kit.integer("Selection.eq", "index", call.Argument(0)), s.sel.Length())
	if !ok {
		return s.derive(s.sel.Slice(0, 0))
	}
	return s.derive(s.sel.Eq(i))
}

// first is first(): the first node, or an empty Selection.
func (s *selection) first(sobek.FunctionCall) sobek.Value { return s.derive(s.sel.First()) }

// last is last(): the last node, or an empty Selection.
func (s *selection) last(sobek.FunctionCall) sobek.Value { return s.derive(s.sel.Last()) }

// slice is slice(start, end): the nodes from start up to, not including,
// end (the end when left out); negative positions count from the end, as
// Array.prototype.slice counts them.
func (s *selection) slice(call sobek.FunctionCall) sobek.Value {
	n := s.sel.Length()
	start := clamp(s.kit.integer("Selection.slice", "start", call.Argument(0)), n)
	end := n
	if !absent(call.Argument(1)) {
		end = clamp(s.kit.integer("Selection.slice", "end", call.Argument(1)), n)
	}
	if end < start {
		end = start
	}
	return s.derive(s.sel.Slice(start, end))
}

// clamp returns the slice position i of a list of n: from the end when
// negative, within 0…n.
func clamp(i, n int) int {
	if i < 0 {
		i += n
	}
	return max(0, min(i, n))
}
