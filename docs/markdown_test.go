package docs

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNewTopic(t *testing.T) {
	long := strings.Repeat("word ", 30) + "end."
	for _, tc := range []struct {
		name, page, title, summary string
	}{
		{"first sentence of the first paragraph",
			"# Probe\n\nThe probe reads\nstreams. It stamps them.\n\nMore.\n", "Probe", "The probe reads streams."},
		{"inline markup removed",
			"# HTTP: `k6/http`\n\n**What** [`k6/http`](http.md) sends, *see* [the docs][ref] and ![a chart](c.png).\n",
			"HTTP: k6/http", "What k6/http sends, see the docs and a chart."},
		{"asterisks and underscores inside code are kept",
			"# T\n\nSet `__ENV.SUT_URL` and `*.internal`, *emphasis* aside.\n", "T", "Set __ENV.SUT_URL and *.internal, emphasis aside."},
		{"lower-case word after a stop continues the sentence",
			"# T\n\nSamples, e.g. the stamps, go out. Then more.\n", "T", "Samples, e.g. the stamps, go out."},
		{"code blocks, headings, tables and comments skipped",
			"<!-- generated -->\n# T\n\n```sh\nmake demo. Not this.\n```\n## Part\n| a | b |\n\nThe paragraph:\n\n```js\nx\n```\n",
			"T", "The paragraph"},
		{"a fence ends the paragraph",
			"# T\n\nBefore the code\n```\nAfter. The code.\n```\n", "T", "Before the code"},
		{"block quote markers dropped",
			"# T\n\n> Note: quoted\n> text. Next.\n", "T", "Note: quoted text."},
		{"long sentence cut at a word",
			"# T\n\n" + long + "\n", "T", strings.TrimSpace(strings.Repeat("word ", 19)) + "…"},
		{"no title", "## Part\n\nText.\n", "", "Text."},
		{"a comment in a code block is no title", "```sh\n# make demo\n```\n\nText.\n", "", "Text."},
		{"no paragraph", "# T\n\n```\ncode\n```\n", "T", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := newTopic("x", tc.page)
			if got.Title != tc.title || got.Summary != tc.summary {
				t.Errorf("title, summary = %q, %q; want %q, %q", got.Title, got.Summary, tc.title, tc.summary)
			}
			if n := utf8.RuneCountInString(got.Summary); n > SummaryLen {
				t.Errorf("summary is %d runes, want at most %d", n, SummaryLen)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		text string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"one two three", 10, "one two…"},
		{"one, two — three", 12, "one, two…"},
		{"unbreakableword", 6, "unbre…"},
		{"ééééé ééééé", 8, "ééééé…"},
	} {
		if got := truncate(tc.text, tc.n); got != tc.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tc.text, tc.n, got, tc.want)
		}
	}
}
