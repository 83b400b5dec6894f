package sse

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
)

// textStream returns an OpenAI stream of n content chunks of the given
// text, and a [DONE].
func textStream(n int, text string) []byte {
	var b bytes.Buffer
	b.WriteString(roleChunk)
	for range n {
		b.WriteString(`data: {"choices":[{"index":0,"delta":{"content":"` + text + `"},"finish_reason":null}]}` + "\n\n")
	}
	b.WriteString(doneChunk)
	return b.Bytes()
}

// TestTextPredicateIsLinear checks that a {text: regex} predicate costs
// time linear in the stream, not in the square of its length: a stream 16
// times longer may take at most 64 times as long (quadratic rescans take
// about 256 times as long). Each size is timed 7 times, the fastest kept.
func TestTextPredicateIsLinear(t *testing.T) {
	useful, err := ParsePredicate(map[string]any{"text": `(approved|denied|refund)`})
	if err != nil {
		t.Fatal(err)
	}
	fastest := func(n int) time.Duration {
		stream := textStream(n, strings.Repeat("w", 39)+" ")
		best := time.Duration(1<<63 - 1)
		for range 7 { // the best of 7 runs: a loaded machine preempts some
			start := time.Now()
			res := readStream(bytes.NewReader(stream), &Request{Dialect: DialectOpenAI, Useful: useful})
			best = min(best, time.Since(start))
			if res.Events != n+2 || res.Timings.Useful != nil {
				t.Fatalf("%d events, useful %v: %s", res.Events, res.Timings.Useful, res.Error)
			}
		}
		return best
	}
	// 16 times the events cost 16 times the time when the matcher is
	// linear, 256 times when it rescans the text: 64 lies between them by
	// a factor of 4 either way.
	small, large := fastest(250), fastest(4000)
	if ratio := float64(large) / float64(small); ratio > 64 {
		t.Errorf("250 events: %v, 4000 events: %v (%.0f×): the text predicate rescans the whole text", small, large, ratio)
	}
}

// TestTextMatcherAgreesWithRegexp feeds texts in every split into chunks
// and checks after each chunk that the incremental matcher says what
// regexp.MatchString says of the text so far: anchors, word boundaries,
// multi-line mode, case folding, empty matches and runes cut between
// chunks included.
func TestTextMatcherAgreesWithRegexp(t *testing.T) {
	patterns := []string{
		`(approved|denied|refund)`, `refund(ed)? approved`, `^Yes`, `days\.$`, `(?m)^Next`, `(?m)step:$`,
		`\bis\b`, `\Bund`, `(?i)APPROVED`, `a.*b`, `x*`, ``, `\d{3,}`, `€\d+`, `[^ ]{6}`, `\A\z`, `é`, `.`,
		`(?s)a.b`, `a$|b`, `o\b`, `o\B`,
	}
	texts := []string{
		"Yes, your refund is approved.", "Next step:\nclick Return.", "order 123 costs €200.85 in 30 days.",
		"a\nb", "undo fund", "", "café", "xo", "o", "bo ox", "\xff\xfeab",
	}
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		m, err := newTextMatcher(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			for _, cuts := range splits(len(text)) {
				m.reset()
				prev := 0
				for _, c := range append(cuts, len(text)) {
					if got, want := m.match(text[:c]), re.MatchString(text[:c]); got != want {
						t.Fatalf("%q on %q (chunks ending at %v, now %d): incremental %v, regexp %v", p, text, cuts, c, got, want)
					}
					prev = c
				}
				_ = prev
			}
		}
	}
}

// splits returns ways to cut a text of n bytes: none, every byte, and
// every single cut.
func splits(n int) [][]int {
	out := [][]int{nil}
	all := make([]int, 0, n)
	for i := 1; i < n; i++ {
		out = append(out, []int{i})
		all = append(all, i)
	}
	return append(out, all)
}

// BenchmarkTextPredicateStream measures a {text: regex} predicate that
// never holds over one 5,000-event OpenAI stream (40 bytes of text per
// event), the whole per-event path included.
//
//	go test -run '^$' -bench TextPredicateStream -benchtime 3x ./sse/
func BenchmarkTextPredicateStream(b *testing.B) {
	useful, err := ParsePredicate(map[string]any{"text": `(approved|denied|refund)`})
	if err != nil {
		b.Fatal(err)
	}
	const events = 5000
	stream := textStream(events, strings.Repeat("w", 39)+" ")
	for b.Loop() {
		res := readStream(bytes.NewReader(stream), &Request{Dialect: DialectOpenAI, Useful: useful})
		if res.Events != events+2 {
			b.Fatalf("events %d: %s", res.Events, res.Error)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/stream")
}

// FuzzTextMatcher checks the incremental matcher against
// regexp.MatchString on arbitrary patterns and texts, fed in two chunks.
func FuzzTextMatcher(f *testing.F) {
	f.Add(`(approved|denied|refund)`, "your refund is approved", 5)
	f.Add(`(?m)^x\b`, "a\nx y", 2)
	f.Add(`o\B$`, "o€", 2)
	f.Fuzz(func(t *testing.T, expr, text string, cut int) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		m, err := newTextMatcher(expr)
		if err != nil {
			t.Fatalf("%q: regexp compiles it, the matcher does not: %v", expr, err)
		}
		if len(text) > 0 {
			cut = ((cut % len(text)) + len(text)) % len(text)
		} else {
			cut = 0
		}
		for _, c := range []int{cut, len(text)} {
			if got, want := m.match(text[:c]), re.MatchString(text[:c]); got != want {
				t.Fatalf("%q on %q (cut %d, now %d): incremental %v, regexp %v", expr, text, cut, c, got, want)
			}
		}
	})
}
