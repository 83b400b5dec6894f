package e2e

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// markdownDoc is a markdown file split into its fenced code blocks and the
// lines outside them, which hold the prose, tables, headings and links.
type markdownDoc struct {
	blocks []codeBlock
	prose  []numberedLine
}

// numberedLine is a line of a file with its 1-based line number.
type numberedLine struct {
	num  int
	text string
}

// codeBlock is a fenced code block.
type codeBlock struct {
	// line is the 1-based line number of the opening fence.
	line int
	// info is the opening fence's info string, trimmed: "js run exit=99".
	info string
	// lines are the block's content lines, without the indentation the
	// opening fence had (a block inside a list item is indented).
	lines []numberedLine
}

// lang returns the first word of the block's info string ("" for none).
func (b codeBlock) lang() string {
	if f := strings.Fields(b.info); len(f) > 0 {
		return f[0]
	}
	return ""
}

// body returns the block's content, each line ending in a newline.
func (b codeBlock) body() string {
	var s strings.Builder
	for _, l := range b.lines {
		s.WriteString(l.text)
		s.WriteByte('\n')
	}
	return s.String()
}

// fenceLine matches a line that may open or close a code fence: the
// indentation, the fence (three or more backticks or tildes) and the rest.
// Any indentation is taken, so that fences inside list items are found.
var fenceLine = regexp.MustCompile("^([ \t]*)(`{3,}|~{3,})(.*)$")

// fence is an open code fence: its character, length and indentation.
type fence struct {
	char   byte
	length int
	indent int
}

// openFence returns the fence that line opens and its info string; ok is
// false if line is not an opening fence. As in CommonMark, the info string
// of a backtick fence holds no backtick ("```js```" is inline code).
func openFence(line string) (f fence, info string, ok bool) {
	m := fenceLine.FindStringSubmatch(line)
	if m == nil || (m[2][0] == '`' && strings.Contains(m[3], "`")) {
		return fence{}, "", false
	}
	return fence{char: m[2][0], length: len(m[2]), indent: len(m[1])}, strings.TrimSpace(m[3]), true
}

// closes reports whether line closes the fence f: the same character, at
// least as many of them, and nothing but blanks after them.
func (f fence) closes(line string) bool {
	m := fenceLine.FindStringSubmatch(line)
	return m != nil && m[2][0] == f.char && len(m[2]) >= f.length && strings.TrimSpace(m[3]) == ""
}

// dedent removes up to f.indent leading spaces or tabs from line.
func (f fence) dedent(line string) string {
	for i := 0; i < f.indent && line != "" && (line[0] == ' ' || line[0] == '\t'); i++ {
		line = line[1:]
	}
	return line
}

// parseMarkdown splits text into its fenced code blocks and the lines
// outside them. A fence that is never closed runs to the end of the text.
func parseMarkdown(text string) markdownDoc {
	var doc markdownDoc
	var open *codeBlock
	var f fence
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		line = strings.TrimSuffix(line, "\r")
		num := i + 1
		switch {
		case open != nil && f.closes(line):
			doc.blocks = append(doc.blocks, *open)
			open = nil
		case open != nil:
			open.lines = append(open.lines, numberedLine{num, f.dedent(line)})
		default:
			if nf, info, ok := openFence(line); ok {
				f, open = nf, &codeBlock{line: num, info: info}
				continue
			}
			doc.prose = append(doc.prose, numberedLine{num, line})
		}
	}
	if open != nil {
		doc.blocks = append(doc.blocks, *open)
	}
	return doc
}

// textPart is a piece of a line: either inline code (without its
// backticks) or text outside code spans.
type textPart struct {
	text string
	code bool
}

// splitCodeSpans splits line into code spans and the text between them.
// A code span opens with a run of backticks and closes with the next run
// of the same length; a run with no closer is literal text, and so is a
// backslash-escaped backtick outside a span. As in CommonMark, one space
// is stripped from both ends of a span's content that has both.
func splitCodeSpans(line string) []textPart {
	var parts []textPart
	var text strings.Builder
	for i := 0; i < len(line); {
		switch {
		case line[i] == '\\' && i+1 < len(line):
			text.WriteString(line[i : i+2])
			i += 2
			continue
		case line[i] != '`':
			text.WriteByte(line[i])
			i++
			continue
		}
		n := backtickRun(line, i)
		end := closingRun(line, i+n, n)
		if end < 0 {
			text.WriteString(line[i : i+n])
			i += n
			continue
		}
		parts = appendText(parts, &text)
		parts = append(parts, textPart{text: trimCodeSpan(line[i+n : end]), code: true})
		i = end + n
	}
	return appendText(parts, &text)
}

// backtickRun returns the length of the run of backticks at line[i:].
func backtickRun(line string, i int) int {
	n := 0
	for i+n < len(line) && line[i+n] == '`' {
		n++
	}
	return n
}

// closingRun returns the index of the first run of exactly n backticks at
// or after from, or -1 if there is none.
func closingRun(line string, from, n int) int {
	for i := from; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		run := backtickRun(line, i)
		if run == n {
			return i
		}
		i += run
	}
	return -1
}

// trimCodeSpan strips one space from both ends of s if it has one at both
// and is not all spaces.
func trimCodeSpan(s string) string {
	if len(s) >= 2 && s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "" {
		return s[1 : len(s)-1]
	}
	return s
}

// appendText appends the text collected in b to parts, if any, and resets b.
func appendText(parts []textPart, b *strings.Builder) []textPart {
	if b.Len() > 0 {
		parts = append(parts, textPart{text: b.String()})
		b.Reset()
	}
	return parts
}

// withoutCodeSpans returns line with its code spans removed.
func withoutCodeSpans(line string) string {
	var s strings.Builder
	for _, p := range splitCodeSpans(line) {
		if !p.code {
			s.WriteString(p.text)
		}
	}
	return s.String()
}

func TestMarkdownFences(t *testing.T) {
	t.Parallel()
	type block struct {
		line  int
		info  string
		body  string
		first int // line number of the first content line, 0 for none
	}
	tests := []struct {
		name   string
		text   string
		blocks []block
		prose  []int // line numbers outside the blocks
	}{
		{"info string and attributes", "a\n```js run exit=99\nx--;\n```\nb\n",
			[]block{{2, "js run exit=99", "x--;\n", 3}}, []int{1, 5}},
		{"no info string", "```\nusefullatency run\n```", []block{{1, "", "usefullatency run\n", 2}}, nil},
		{"four backticks hold three", "````md\n```js\nx\n```\n````\nafter",
			[]block{{1, "md", "```js\nx\n```\n", 2}}, []int{6}},
		{"tildes hold backticks", "~~~\n```\n~~~", []block{{1, "", "```\n", 2}}, nil},
		{"a longer closing fence closes", "```sh\nx\n`````\ny", []block{{1, "sh", "x\n", 2}}, []int{4}},
		{"a fence with text after it does not close", "```\n``` x\n```", []block{{1, "", "``` x\n", 2}}, nil},
		{"a tilde does not close backticks", "```\n~~~\n```", []block{{1, "", "~~~\n", 2}}, nil},
		{"unclosed runs to the end", "p\n```js\na\nb", []block{{2, "js", "a\nb\n", 3}}, []int{1}},
		{"indented in a list item", "1. step\n   ```sh\n   make\n     x\n   ```", []block{{2, "sh", "make\n  x\n", 3}}, []int{1}},
		{"backticks in the info string are inline code", "```js``` is a fragment", nil, []int{1}},
		{"empty block", "```\n```", []block{{1, "", "", 0}}, nil},
		{"CRLF", "```js\r\nx\r\n```\r\n", []block{{1, "js", "x\n", 2}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			doc := parseMarkdown(tt.text)
			var got []block
			for _, b := range doc.blocks {
				first := 0
				if len(b.lines) > 0 {
					first = b.lines[0].num
				}
				got = append(got, block{b.line, b.info, b.body(), first})
			}
			if !reflect.DeepEqual(got, tt.blocks) {
				t.Errorf("blocks = %+v, want %+v", got, tt.blocks)
			}
			var prose []int
			for _, l := range doc.prose {
				prose = append(prose, l.num)
			}
			if !reflect.DeepEqual(prose, tt.prose) {
				t.Errorf("prose lines = %v, want %v", prose, tt.prose)
			}
		})
	}
}

func TestMarkdownCodeBlockLang(t *testing.T) {
	t.Parallel()
	for info, want := range map[string]string{"": "", "js run exit=99": "js", "  sh  ": "sh"} {
		if got := (codeBlock{info: strings.TrimSpace(info)}).lang(); got != want {
			t.Errorf("lang of %q = %q, want %q", info, got, want)
		}
	}
}

func TestMarkdownCodeSpans(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, line, without string
		code                []string
	}{
		{"one span", "a `b` c", "a  c", []string{"b"}},
		{"two spans", "`--out` and `-o`", " and ", []string{"--out", "-o"}},
		{"double backticks hold one", "x ``a ` b`` y", "x  y", []string{"a ` b"}},
		{"a space at both ends is stripped", "`` `x` ``", "", []string{"`x`"}},
		{"only spaces are kept", "` `", "", []string{" "}},
		{"an unmatched run is literal", "a ` b", "a ` b", nil},
		{"a run of another length does not close", "``a` b", "``a` b", nil},
		{"an escaped backtick opens nothing", "\\`a` b", "\\`a` b", nil},
		{"link inside a span", "see `[x](y.md)` here", "see  here", []string{"[x](y.md)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := withoutCodeSpans(tt.line); got != tt.without {
				t.Errorf("withoutCodeSpans(%q) = %q, want %q", tt.line, got, tt.without)
			}
			var code []string
			for _, p := range splitCodeSpans(tt.line) {
				if p.code {
					code = append(code, p.text)
				}
			}
			if !reflect.DeepEqual(code, tt.code) {
				t.Errorf("code spans of %q = %q, want %q", tt.line, code, tt.code)
			}
		})
	}
}
