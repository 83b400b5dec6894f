package k6html

import (
	"strconv"
	"strings"

	"github.com/grafana/sobek"
	"golang.org/x/net/html"
)

// tagMethods are the methods k6 adds to the Elements of some tags, on top
// of elementMethods; the hyperlink ones are in link.go, the form ones in
// control.go.
var tagMethods = map[string]map[string]method[*element]{
	"a": hyperlinkMethods, "area": hyperlinkMethods,
	"link":   {"relList": (*element).relList},
	"form":   {"elements": (*element).formElements, "length": (*element).formLength, "method": (*element).formMethodOf},
	"input":  formFieldMethods,
	"button": merge(formFieldMethods, map[string]method[*element]{"value": (*element).buttonValue}),
	"select": merge(formFieldMethods, map[string]method[*element]{
		"length": (*element).selectLength, "options": (*element).selectOptions, "selectedIndex": (*element).selectedIndex,
		"selectedOptions": (*element).selectedOptions, "size": intAttr("size", 0), "type": (*element).selectType,
		"value": (*element).selectValue,
	}),
	"textarea": {"form": (*element).form, "labels": (*element).labels, "length": (*element).textLength},
	"option": {
		"disabled": (*element).optionDisabled, "form": (*element).form, "index": (*element).optionIndex,
		"label": (*element).optionLabel, "text": (*element).text, "value": (*element).optionValue,
	},
	"datalist": {"options": (*element).datalistOptions},
	"fieldset": {
		"elements": (*element).formElements, "form": (*element).form,
		"type": constant("fieldset"), "validity": constant(nil),
	},
	"label":  {"control": (*element).control, "form": (*element).labelForm},
	"legend": {"form": (*element).legendForm},
	"object": {"form": (*element).form},
	"keygen": {"form": (*element).form, "labels": (*element).labels},
	"meter":  {"labels": (*element).labels},
	"output": {
		"defaultValue": (*element).text, "form": (*element).form, "labels": (*element).labels, "value": (*element).text,
	},
	"progress": {
		"labels": (*element).labels, "max": (*element).progressMax, "value": (*element).progressValue,
		"position": (*element).progressPosition,
	},
	"title":  {"text": (*element).text},
	"script": {"text": (*element).text},
	"style":  {"text": (*element).text, "type": stringAttr("type")},
	"canvas": {"width": intAttr("width", 300), "height": intAttr("height", 150)},
	"table": {
		"caption": childOfTag("caption"), "tHead": childOfTag("thead"), "tFoot": childOfTag("tfoot"),
		"tBodies": (*element).tBodies, "rows": (*element).rows,
		// k6's documentation lists them in lower case too.
		"thead": childOfTag("thead"), "tfoot": childOfTag("tfoot"), "tbody": (*element).tBodies,
	},
	"thead": {"rows": (*element).rows}, "tbody": {"rows": (*element).rows}, "tfoot": {"rows": (*element).rows},
	"tr": {
		"cells": (*element).cells, "rowIndex": (*element).rowIndex, "sectionRowIndex": (*element).sectionRowIndex,
	},
	"td": tableCellMethods, "th": tableCellMethods,
	"col": {"span": intAttr("span", 1)}, "colgroup": {"span": intAttr("span", 1)},
	"video": {"textTracks": (*element).textTracks}, "audio": {"textTracks": (*element).textTracks},
	"map": {"areas": (*element).areas, "images": (*element).images},
}

// tableCellMethods are the methods of td and th.
var tableCellMethods = map[string]method[*element]{
	"cellIndex": (*element).cellIndex, "colSpan": intAttr("colspan", 1), "rowSpan": intAttr("rowspan", 1),
	"headers": stringAttr("headers"),
}

// merge returns the methods of a and b; b's win.
func merge(a, b map[string]method[*element]) map[string]method[*element] {
	out := map[string]method[*element]{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// constant returns the method that gives v.
func constant(v any) method[*element] {
	return func(e *element, _ sobek.FunctionCall) sobek.Value {
		if v == nil {
			return sobek.Undefined()
		}
		return e.kit.rt.ToValue(v)
	}
}

// stringAttr returns the method that gives the attribute name, "" when
// there is none.
func stringAttr(name string) method[*element] {
	return func(e *element, _ sobek.FunctionCall) sobek.Value {
		v, _ := attr(e.node, name)
		return e.kit.rt.ToValue(v)
	}
}

// intAttr returns the method that gives the attribute name as an integer,
// def when it is missing or not one.
func intAttr(name string, def int) method[*element] {
	return func(e *element, _ sobek.FunctionCall) sobek.Value {
		return e.kit.rt.ToValue(attrInt(e.node, name, def))
	}
}

// attrInt returns the attribute name of n as an integer, def when it is
// missing or not one.
func attrInt(n *html.Node, name string, def int) int {
	v, ok := attr(n, name)
	if !ok {
		return def
	}
	i, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return def
	}
	return i
}

// attrFloat returns the attribute name of n as a number, def when it is
// missing or not one.
func attrFloat(n *html.Node, name string, def float64) float64 {
	v, ok := attr(n, name)
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return def
	}
	return f
}

// text is text(): the text content.
func (e *element) text(sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(nodeText(e.node))
}

// childOfTag returns the method that gives the first child element of
// tag, undefined when there is none.
func childOfTag(tag string) method[*element] {
	return func(e *element, _ sobek.FunctionCall) sobek.Value {
		for _, c := range e.childElements() {
			if c.Data == tag {
				return e.kit.element(e.doc, c)
			}
		}
		return sobek.Undefined()
	}
}

// childrenOfTag returns the child elements of n of one of tags.
func childrenOfTag(n *html.Node, tags ...string) []*html.Node {
	var out []*html.Node
	for c := nextElement(n.FirstChild, next); c != nil; c = nextElement(c.NextSibling, next) {
		if isElement(c, tags...) {
			out = append(out, c)
		}
	}
	return out
}

// tBodies is tBodies(): the tbody children of a table.
func (e *element) tBodies(sobek.FunctionCall) sobek.Value {
	return e.kit.elements(e.doc, childrenOfTag(e.node, "tbody"))
}

// tableRows returns the rows of a table (those of its thead, its tbody
// elements and its tfoot, and its own tr children) or of a table section.
func tableRows(n *html.Node) []*html.Node {
	if n.Data != "table" {
		return childrenOfTag(n, "tr")
	}
	var out []*html.Node
	for _, sections := range [][]string{{"thead"}, {"tbody", "tr"}, {"tfoot"}} {
		for _, c := range childrenOfTag(n, sections...) {
			if c.Data == "tr" {
				out = append(out, c)
				continue
			}
			out = append(out, childrenOfTag(c, "tr")...)
		}
	}
	return out
}

// rows is rows(): the rows of a table or table section.
func (e *element) rows(sobek.FunctionCall) sobek.Value {
	return e.kit.elements(e.doc, tableRows(e.node))
}

// cells is cells(): the td and th children of a row.
func (e *element) cells(sobek.FunctionCall) sobek.Value {
	return e.kit.elements(e.doc, childrenOfTag(e.node, "td", "th"))
}

// rowIndex is rowIndex(): the position of a row among its table's rows,
// -1 outside a table.
func (e *element) rowIndex(sobek.FunctionCall) sobek.Value {
	table := e.node.Parent
	if isElement(table, "thead", "tbody", "tfoot") {
		table = table.Parent
	}
	if !isElement(table, "table") {
		return e.kit.rt.ToValue(-1)
	}
	return e.kit.rt.ToValue(indexOf(tableRows(table), e.node))
}

// sectionRowIndex is sectionRowIndex(): the position of a row in its
// section (or table).
func (e *element) sectionRowIndex(sobek.FunctionCall) sobek.Value {
	if e.node.Parent == nil {
		return e.kit.rt.ToValue(-1)
	}
	return e.kit.rt.ToValue(indexOf(childrenOfTag(e.node.Parent, "tr"), e.node))
}

// cellIndex is cellIndex(): the position of a cell in its row.
func (e *element) cellIndex(sobek.FunctionCall) sobek.Value {
	if !isElement(e.node.Parent, "tr") {
		return e.kit.rt.ToValue(-1)
	}
	return e.kit.rt.ToValue(indexOf(childrenOfTag(e.node.Parent, "td", "th"), e.node))
}

// indexOf returns the position of n in nodes, -1 when it is not there.
func indexOf(nodes []*html.Node, n *html.Node) int {
	for i, x := range nodes {
		if x == n {
			return i
		}
	}
	return -1
}

// textTracks is textTracks(): the track children of a video or audio.
func (e *element) textTracks(sobek.FunctionCall) sobek.Value {
	return e.kit.elements(e.doc, childrenOfTag(e.node, "track"))
}

// progressMax is max(): a progress bar's max attribute, 1 by default.
func (e *element) progressMax(sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(attrFloat(e.node, "max", 1))
}

// progressValue is value(): a progress bar's value attribute, 0 by
// default.
func (e *element) progressValue(sobek.FunctionCall) sobek.Value {
	return e.kit.rt.ToValue(attrFloat(e.node, "value", 0))
}

// progressPosition is position(): value / max, or -1 for a progress bar
// without a value (indeterminate).
func (e *element) progressPosition(sobek.FunctionCall) sobek.Value {
	if !hasAttr(e.node, "value") {
		return e.kit.rt.ToValue(-1)
	}
	return e.kit.rt.ToValue(attrFloat(e.node, "value", 0) / attrFloat(e.node, "max", 1))
}

// areas is areas() of a map: its area elements.
func (e *element) areas(sobek.FunctionCall) sobek.Value {
	return e.kit.elements(e.doc, descendants(e.node, func(n *html.Node) bool { return n.Data == "area" }))
}

// images is images() of a map: the img and object elements of the
// document whose usemap attribute names it ("#name").
func (e *element) images(sobek.FunctionCall) sobek.Value {
	name, _ := attr(e.node, "name")
	return e.kit.elements(e.doc, descendants(e.doc.dom.Nodes[0], func(n *html.Node) bool {
		usemap, _ := attr(n, "usemap")
		return (n.Data == "img" || n.Data == "object") && name != "" && usemap == "#"+name
	}))
}
