package docs

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SummaryLen is the longest a Topic's Summary gets, in runes; a longer
// sentence is cut at a word and ends with "…".
const SummaryLen = 100

// splitTitle returns the text of the page's first "# " heading outside
// code blocks, without inline markup, and the markdown after it; a page
// without one has an empty title and is all body.
func splitTitle(markdown string) (title, body string) {
	rest, fenced := markdown, false
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		line = strings.TrimSpace(line)
		if isFence(line) {
			fenced = !fenced
		}
		if heading, ok := strings.CutPrefix(line, "# "); ok && !fenced {
			return plain(heading), rest
		}
	}
	return "", markdown
}

// summarize returns the first sentence of the first paragraph of body, on
// one line, without inline markup, cut to SummaryLen runes.
func summarize(body string) string {
	sentence := firstSentence(plain(firstParagraph(body)))
	return strings.TrimSuffix(truncate(sentence, SummaryLen), ":")
}

// firstParagraph returns the lines of body's first paragraph joined by
// spaces. Fenced code blocks, headings, tables and HTML lines are not
// paragraphs and are skipped; a block quote's markers are dropped.
func firstParagraph(body string) string {
	var para []string
	fenced := false
	for line := range strings.Lines(body) {
		line = strings.TrimSpace(line)
		switch {
		case fenced:
			fenced = !isFence(line)
		case line == "" || line == ">" || notProse(line):
			if len(para) > 0 {
				return strings.Join(para, " ")
			}
			fenced = isFence(line)
		default:
			para = append(para, strings.TrimSpace(strings.TrimPrefix(line, "> ")))
		}
	}
	return strings.Join(para, " ")
}

// notProse reports whether a line starts something other than a paragraph:
// a code fence, a heading, a table row, an HTML tag or comment, a thematic
// break.
func notProse(line string) bool {
	return isFence(line) || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "|") ||
		strings.HasPrefix(line, "<") || line == "---" || line == "***"
}

// isFence reports whether a line opens or closes a fenced code block.
func isFence(line string) bool {
	return strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~")
}

// firstSentence returns text up to and including the first '.', '!' or '?'
// that a space and a capital letter (or the end of text) follow; a
// lower-case word after the stop, as in "e.g. the", continues the sentence.
func firstSentence(text string) string {
	for i, r := range text {
		if r != '.' && r != '!' && r != '?' {
			continue
		}
		after := text[i+1:]
		if after == "" {
			return text
		}
		next, _ := utf8.DecodeRuneInString(strings.TrimLeft(after, " "))
		if after[0] == ' ' && unicode.IsUpper(next) {
			return text[:i+1]
		}
	}
	return text
}

// truncate cuts text to at most n runes, at the last space that leaves
// room for the "…" it then ends with.
func truncate(text string, n int) string {
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	runes := []rune(text)[:n-1]
	cut := string(runes)
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:—-") + "…"
}

// inlineLink matches a link or image, inline ("[text](url)") or by
// reference ("[text][ref]"), capturing its text.
var inlineLink = regexp.MustCompile(`!?\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])`)

// plain returns markdown text without its inline markup: a link or image
// becomes its text, code spans lose their backticks, emphasis outside them
// loses its asterisks, and runs of white space become one space.
func plain(text string) string {
	spans := strings.Split(inlineLink.ReplaceAllString(text, "$1"), "`")
	for i := 0; i < len(spans); i += 2 { // the even spans are outside code
		spans[i] = strings.ReplaceAll(spans[i], "*", "")
	}
	return strings.Join(strings.Fields(strings.Join(spans, "")), " ")
}
