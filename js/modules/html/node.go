package k6html

import (
	"strings"

	"golang.org/x/net/html"
)

// attr returns the value of the attribute key of n (its name in lower
// case, as the parser stores names) and whether n has it.
func attr(n *html.Node, key string) (string, bool) {
	key = strings.ToLower(key)
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// hasAttr reports whether n has the attribute key.
func hasAttr(n *html.Node, key string) bool {
	_, ok := attr(n, key)
	return ok
}

// nodeText returns the text of n: its data for a text node, else the
// text of its descendant text nodes, joined.
func nodeText(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				b.WriteString(c.Data)
			case html.ElementNode, html.DocumentNode:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

// isElement reports whether n is an element, of one of tags when given.
func isElement(n *html.Node, tags ...string) bool {
	if n == nil || n.Type != html.ElementNode {
		return false
	}
	if len(tags) == 0 {
		return true
	}
	for _, t := range tags {
		if n.Data == t {
			return true
		}
	}
	return false
}
