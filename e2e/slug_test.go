package e2e

import (
	"html"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// Markdown syntax the heading and anchor helpers look for.
var (
	// atxHeading matches "## Title ##" and captures the text after the #s.
	atxHeading = regexp.MustCompile(`^ {0,3}#{1,6}(?:[ \t]+(.*))?$`)
	// atxClosing matches an ATX heading's optional closing #s.
	atxClosing = regexp.MustCompile(`(?:^|[ \t]+)#+[ \t]*$`)
	// setextUnderline matches the === or --- under a setext heading.
	setextUnderline = regexp.MustCompile(`^ {0,3}(?:=+|-+)[ \t]*$`)
	// notParagraph matches lines that start something other than a
	// paragraph: a heading, quote, table row, HTML, list item.
	notParagraph = regexp.MustCompile(`^\s*(?:#|>|\||<|[-*+](?:\s|$)|\d+[.)](?:\s|$))`)
	// htmlAnchor matches an explicit anchor: <a name="x"> or <a id="x">.
	htmlAnchor = regexp.MustCompile(`(?i)<a\s[^>]*\b(?:name|id)\s*=\s*"([^"]+)"`)
	// mdImage, mdLink and htmlTag match inline markup that GitHub renders
	// as something other than its source text.
	mdImage = regexp.MustCompile(`!\[[^\]]*\]\([^)]*\)`)
	mdLink  = regexp.MustCompile(`\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])`)
	htmlTag = regexp.MustCompile(`</?[A-Za-z][^>]*>`)
	// backslashEscape matches a backslash escape of ASCII punctuation.
	backslashEscape = regexp.MustCompile("\\\\([!-/:-@\\[-`{-~])")
)

// markdownHeadings returns the text of every ATX and setext heading of doc, in
// order, as written (with its inline markup).
func markdownHeadings(doc markdownDoc) []numberedLine {
	var found []numberedLine
	var para []numberedLine // the paragraph a setext underline would close
	for _, l := range doc.prose {
		if len(para) > 0 && para[len(para)-1].num != l.num-1 {
			para = nil // a code block came between
		}
		switch {
		case atxHeading.MatchString(l.text):
			found = append(found, numberedLine{l.num, atxText(l.text)})
			para = nil
		case setextUnderline.MatchString(l.text) && len(para) > 0:
			found = append(found, numberedLine{para[0].num, joinTrimmed(para)})
			para = nil
		case strings.TrimSpace(l.text) == "" || notParagraph.MatchString(l.text):
			para = nil
		default:
			para = append(para, l)
		}
	}
	return found
}

// atxText returns the text of an ATX heading line, without its opening and
// closing #s.
func atxText(line string) string {
	text := strings.TrimSpace(atxHeading.FindStringSubmatch(line)[1])
	return strings.TrimSpace(atxClosing.ReplaceAllString(text, ""))
}

// joinTrimmed joins the trimmed texts of lines with spaces.
func joinTrimmed(lines []numberedLine) string {
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = strings.TrimSpace(l.text)
	}
	return strings.Join(texts, " ")
}

// headingAnchors returns every fragment a link into doc may name: the GitHub slug
// of each heading, numbered as GitHub numbers duplicates, and each
// explicit <a name="…"> or <a id="…">.
func headingAnchors(doc markdownDoc) map[string]bool {
	set := map[string]bool{}
	s := slugger{}
	for _, h := range markdownHeadings(doc) {
		set[s.slug(h.text)] = true
	}
	for _, l := range doc.prose {
		for _, m := range htmlAnchor.FindAllStringSubmatch(withoutCodeSpans(l.text), -1) {
			set[m[1]] = true
		}
	}
	return set
}

// slugger numbers duplicate slugs within one file as github-slugger does:
// the first "x" is "x", the next "x-1", then "x-2", skipping a number a
// heading already took. It maps a base slug to the last number it got.
type slugger map[string]int

// slug returns the anchor of the next heading with the given markdown text.
func (s slugger) slug(heading string) string {
	base := githubSlug(plainHeading(heading))
	slug := base
	for {
		if _, taken := s[slug]; !taken {
			break
		}
		s[base]++
		slug = base + "-" + strconv.Itoa(s[base])
	}
	s[slug] = 0
	return slug
}

// githubSlug turns a heading's rendered text into its anchor as GitHub
// does: lowercase, every character but letters, marks, digits, connector
// punctuation (the underscore), spaces and hyphens removed, then every
// space a hyphen. Runs of hyphens are kept: "a -- b" is "a----b".
func githubSlug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-', unicode.IsLetter(r), unicode.IsMark(r), unicode.IsNumber(r), unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// plainHeading returns the text GitHub renders for a heading's markdown:
// code spans' content as written, a link's text without its target, no
// image, no HTML tag, no backslash escape, entities decoded and the
// underscores of emphasis removed (an underscore inside a word stays).
func plainHeading(markdown string) string {
	markdown = mdImage.ReplaceAllString(markdown, "")
	markdown = mdLink.ReplaceAllString(markdown, "$1")
	var b strings.Builder
	for _, p := range splitCodeSpans(markdown) {
		if p.code {
			b.WriteString(p.text)
			continue
		}
		text := htmlTag.ReplaceAllString(p.text, "")
		text = backslashEscape.ReplaceAllString(text, "$1")
		b.WriteString(withoutEmphasisUnderscores(html.UnescapeString(text)))
	}
	return strings.TrimSpace(b.String())
}

// withoutEmphasisUnderscores removes every underscore of s that is not
// between two letters or digits: "_a_ b_c" becomes "a b_c".
func withoutEmphasisUnderscores(s string) string {
	runes := []rune(s)
	var b strings.Builder
	for i, r := range runes {
		if r == '_' && !(i > 0 && i+1 < len(runes) && isWordRune(runes[i-1]) && isWordRune(runes[i+1])) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isWordRune reports whether r is a letter or a digit.
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

func TestMarkdownSlugs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		headings []string
		want     []string
	}{
		{"code and punctuation", []string{"HTML report (`-o html[=file]`, `--report file`)"}, []string{"html-report--o-htmlfile---report-file"}},
		{"code span with a flag", []string{"Archives and `inspect --execution-requirements`"}, []string{"archives-and-inspect---execution-requirements"}},
		{"colon and backticks", []string{"The built-in assistant: `usefullatency mock`"}, []string{"the-built-in-assistant-usefullatency-mock"}},
		{"slashes and commas", []string{"DNS, local IPs, `rps`, `httpDebug`"}, []string{"dns-local-ips-rps-httpdebug"}},
		{"dots and apostrophes", []string{"The operator's flow on one machine: `make dist-demo`"}, []string{"the-operators-flow-on-one-machine-make-dist-demo"}},
		{"double hyphens stay", []string{"a -- b"}, []string{"a----b"}},
		{"underscores stay", []string{"`usefulsse_buckets` and snake_case"}, []string{"usefulsse_buckets-and-snake_case"}},
		{"emphasis is dropped", []string{"**Bold** and _em_ and *it*"}, []string{"bold-and-em-and-it"}},
		{"link text without target", []string{"See [the probe](probe.md#x)"}, []string{"see-the-probe"}},
		{"image dropped", []string{"Logo ![alt](x.png) here"}, []string{"logo--here"}},
		{"HTML tags and entities", []string{"<code>a</code> &amp; b"}, []string{"a--b"}},
		{"backslash escapes", []string{`Result \(version 1\)`}, []string{"result-version-1"}},
		{"unicode letters kept, symbols dropped", []string{"Übersicht → Zürich ✓"}, []string{"übersicht--zürich-"}},
		{"digits and dots", []string{"k6 v1.0 notes"}, []string{"k6-v10-notes"}},
		{"duplicates are numbered", []string{"Params", "Params", "Params"}, []string{"params", "params-1", "params-2"}},
		{"a taken number is skipped", []string{"x", "x-1", "x"}, []string{"x", "x-1", "x-2"}},
		{"duplicates after slugging", []string{"`k6/x/sse`", "k6/x/sse"}, []string{"k6xsse", "k6xsse-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := slugger{}
			var got []string
			for _, h := range tt.headings {
				got = append(got, s.slug(h))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("slugs of %q = %q, want %q", tt.headings, got, tt.want)
			}
		})
	}
}

func TestMarkdownHeadings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want []numberedLine
	}{
		{"ATX levels", "# One\ntext\n###### Six", []numberedLine{{1, "One"}, {3, "Six"}}},
		{"closing hashes", "## Two ##\n## C# #", []numberedLine{{1, "Two"}, {2, "C#"}}},
		{"no space is no heading", "#hashtag\n####### seven", nil},
		{"indented up to three", "   # Yes\n    # No", []numberedLine{{1, "Yes"}}},
		{"setext", "Title\n=====\n\nSub\ntitle\n---", []numberedLine{{1, "Title"}, {4, "Sub title"}}},
		{"a rule after a blank line is no heading", "text\n\n---", nil},
		{"a rule after a list item is no heading", "- item\n---", nil},
		{"a table row is no heading", "| a |\n---", nil},
		{"headings in code blocks are not headings", "```sh\n# comment\n```\n# Real", []numberedLine{{4, "Real"}}},
		{"a code block breaks a paragraph", "text\n```\nx\n```\n---", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := markdownHeadings(parseMarkdown(tt.text)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("headings = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMarkdownAnchors(t *testing.T) {
	t.Parallel()
	doc := parseMarkdown("# Result\n## Result\n```\n## Not a heading\n```\n<a name=\"custom\"></a>\n`<a id=\"in-code\">`\n\nResult\n---\n")
	got := headingAnchors(doc)
	for _, want := range []string{"result", "result-1", "result-2", "custom"} {
		if !got[want] {
			t.Errorf("anchor %q missing from %v", want, got)
		}
	}
	for _, absent := range []string{"not-a-heading", "in-code", "result-3"} {
		if got[absent] {
			t.Errorf("anchor %q present in %v", absent, got)
		}
	}
}
