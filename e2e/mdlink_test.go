package e2e

import (
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// The forms of link whose targets links collects.
var (
	// inlineTarget matches the target of [text](target "title") and
	// ![alt](target), plain or in <angle brackets>.
	inlineTarget = regexp.MustCompile(`\]\(\s*(<[^>\n]*>|[^)\s]*)`)
	// refDefinition matches a reference definition, [label]: target; a
	// footnote, [^1]: text, is none.
	refDefinition = regexp.MustCompile(`^ {0,3}\[[^\]^][^\]]*\]:\s*(<[^>]*>|\S+)`)
	// htmlLinkAttr matches the href of <a> and the src of <img>.
	htmlLinkAttr = regexp.MustCompile(`(?i)<(?:a|img)\s[^>]*\b(?:href|src)\s*=\s*"([^"]*)"`)
	// urlScheme matches an absolute URL's scheme: https:, mailto:, …
	urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
)

// linkTargets returns the target of every link and image in doc's prose, with
// the line it is on: inline links and images, reference definitions and
// HTML <a href> and <img src>. Links in code blocks and code spans are
// not links and are left out.
func linkTargets(doc markdownDoc) []numberedLine {
	var found []numberedLine
	for _, l := range doc.prose {
		text := withoutCodeSpans(l.text)
		var targets []string
		for _, re := range []*regexp.Regexp{inlineTarget, refDefinition, htmlLinkAttr} {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				targets = append(targets, m[1])
			}
		}
		for _, t := range targets {
			t = strings.TrimSuffix(strings.TrimPrefix(t, "<"), ">")
			found = append(found, numberedLine{l.num, t})
		}
	}
	return found
}

// linkTarget is a link's target split into what the link test checks.
type linkTarget struct {
	// path is the file or directory, URL-decoded, relative to the linking
	// file (or to the repository root if it starts with "/"); empty for
	// a link within the same file.
	path string
	// fragment is the anchor after "#", URL-decoded; empty for none.
	fragment string
	// external is true for an absolute URL (https:, mailto:, //host/…),
	// which is not checked.
	external bool
}

// parseTarget splits a link target into its path and fragment; a query
// string is dropped.
func parseTarget(target string) linkTarget {
	if urlScheme.MatchString(target) || strings.HasPrefix(target, "//") {
		return linkTarget{external: true}
	}
	path, fragment, _ := strings.Cut(target, "#")
	path, _, _ = strings.Cut(path, "?")
	return linkTarget{path: unescape(path), fragment: unescape(fragment)}
}

// unescape URL-decodes s, or returns it unchanged if it is no valid
// escaped string.
func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

func TestMarkdownLinks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want []numberedLine
	}{
		{"inline and image", "see [cli](cli.md#flags) and ![shot](img/a.png)",
			[]numberedLine{{1, "cli.md#flags"}, {1, "img/a.png"}}},
		{"title and angle brackets", "[a](x.md \"title\") [b](<with space.md>)",
			[]numberedLine{{1, "x.md"}, {1, "with space.md"}}},
		{"same-file anchor", "[up](#quick-start)", []numberedLine{{1, "#quick-start"}}},
		{"code span as link text", "[`--report`](outputs.md#html)", []numberedLine{{1, "outputs.md#html"}}},
		{"reference definition", "[ref]: docs/cli.md\n   [other]: <a b.md>", []numberedLine{{1, "docs/cli.md"}, {2, "a b.md"}}},
		{"footnote is no link", "[^1]: a note", nil},
		{"HTML href and src", `<a href="probe.md">p</a> <img src="x.svg">`, []numberedLine{{1, "probe.md"}, {1, "x.svg"}}},
		{"link in a code span is ignored", "`[x](missing.md)` and [y](y.md)", []numberedLine{{1, "y.md"}}},
		{"link in a code block is ignored", "```md\n[x](missing.md)\n```\n[z](z.md)", []numberedLine{{4, "z.md"}}},
		{"link in a nested fence is ignored", "````\n```\n[x](missing.md)\n```\n````", nil},
		{"URL kept for the caller", "[k6](https://k6.io/docs)", []numberedLine{{1, "https://k6.io/docs"}}},
		{"brackets without a target", "[x] and arr[0] (paren)", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := linkTargets(parseMarkdown(tt.text)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("links = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMarkdownParseTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		target string
		want   linkTarget
	}{
		{"cli.md", linkTarget{path: "cli.md"}},
		{"cli.md#run-flags", linkTarget{path: "cli.md", fragment: "run-flags"}},
		{"#quick-start", linkTarget{fragment: "quick-start"}},
		{"../README.md?plain=1#layout", linkTarget{path: "../README.md", fragment: "layout"}},
		{"my%20file.md#caf%C3%A9", linkTarget{path: "my file.md", fragment: "café"}},
		{"https://example.com/a.md#x", linkTarget{external: true}},
		{"mailto:a@b.c", linkTarget{external: true}},
		{"//cdn.example.com/x.js", linkTarget{external: true}},
		{"bad%zzescape.md", linkTarget{path: "bad%zzescape.md"}},
	}
	for _, tt := range tests {
		if got := parseTarget(tt.target); got != tt.want {
			t.Errorf("parseTarget(%q) = %+v, want %+v", tt.target, got, tt.want)
		}
	}
}

func TestMarkdownResolveLink(t *testing.T) {
	t.Parallel()
	tests := []struct{ from, link, want string }{
		{"docs/cli.md", "probe.md", "docs/probe.md"},
		{"docs/cli.md", "../README.md", "README.md"},
		{"README.md", "docs/", "docs"},
		{"docs/cli.md", "/examples/a.js", "examples/a.js"},
		{"docs/cli.md", "../../outside.md", "../outside.md"},
	}
	for _, tt := range tests {
		if got := resolveLink(tt.from, tt.link); got != tt.want {
			t.Errorf("resolveLink(%q, %q) = %q, want %q", tt.from, tt.link, got, tt.want)
		}
	}
}
