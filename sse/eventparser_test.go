package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	gosse "github.com/tmaxmax/go-sse"
)

// parsed is what a parser gave its handler: an event or a comment, with
// the arrival of the read that completed it.
type parsed struct {
	comment         bool
	typ, id, data   string
	text            string
	at              time.Duration
	tooLarge, ended bool
}

// parseRecorder is an eventHandler that records what it is given; an
// event whose data is "[DONE]" ends the stream.
type parseRecorder struct {
	got      []parsed
	finished bool
}

func (r *parseRecorder) onEvent(e gosse.Event, at time.Duration) error {
	r.got = append(r.got, parsed{typ: e.Type, id: e.LastEventID, data: e.Data, at: at})
	r.finished = e.Data == "[DONE]"
	return nil
}

func (r *parseRecorder) onComment(text string, at time.Duration) error {
	r.got = append(r.got, parsed{comment: true, text: text, at: at})
	return nil
}

func (r *parseRecorder) ended() bool { return r.finished }

// pieceReader hands out its pieces one read at a time (a piece longer
// than the read's buffer over several), each stamped with its index.
type pieceReader struct {
	pieces [][]byte
	i      int
	at     time.Duration
}

func (p *pieceReader) Read(b []byte) (int, error) {
	for p.i < len(p.pieces) && len(p.pieces[p.i]) == 0 {
		p.i++
	}
	if p.i == len(p.pieces) {
		return 0, io.EOF
	}
	p.at = time.Duration(p.i)
	n := copy(b, p.pieces[p.i])
	p.pieces[p.i] = p.pieces[p.i][n:]
	return n, nil
}

func (p *pieceReader) arrival() time.Duration { return p.at }

// pullParse parses pieces the way a stream read through net/http is
// parsed (go-sse's Read under a commentReader, reader.go).
func pullParse(pieces [][]byte, max int) []parsed {
	r := &parseRecorder{}
	pr := &pieceReader{pieces: clonePieces(pieces)}
	cr := newCommentReader(pr, nil, r.onComment)
	for e, err := range gosse.Read(cr, &gosse.ReadConfig{MaxEventSize: max}) {
		if err != nil {
			return append(r.got, parsed{tooLarge: errors.Is(err, bufio.ErrTooLong)})
		}
		_ = r.onEvent(e, cr.Arrival)
		if r.finished {
			return append(r.got, parsed{ended: true})
		}
	}
	return r.got
}

// pushParse parses pieces with an eventParser, one feed per piece.
func pushParse(pieces [][]byte, max int) []parsed {
	r := &parseRecorder{}
	p := eventParser{s: r, max: max}
	for i, b := range pieces {
		n, err := p.feed(b, time.Duration(i))
		var big *tooLargeError
		if errors.As(err, &big) {
			return append(r.got, parsed{tooLarge: true})
		}
		if r.finished {
			if n > len(b) {
				panic("feed took more than it was given")
			}
			return append(r.got, parsed{ended: true})
		}
	}
	return r.got
}

func clonePieces(pieces [][]byte) [][]byte {
	out := make([][]byte, len(pieces))
	for i, b := range pieces {
		out[i] = append([]byte(nil), b...)
	}
	return out
}

// streamLines are the lines random streams are made of: fields the format
// knows and ones it does not, comments, blank lines, odd spacing.
var streamLines = []string{
	"data: hello", "data:x", "data", "data:  two spaces", "data: [DONE]",
	"event: delta", "event:delta", "event", "id: 7", "id:", "id: a\x00b",
	"retry: 100", "retry: x", ": ping", ":", ":  spaced", "unknown: v",
	"dataxx: y", "longname: z", "", "", "", "\xEF\xBB\xBFdata: marked",
	"data: " + strings.Repeat("é", 40),
}

// randomStream builds an event stream of n lines with mixed line ends,
// sometimes starting with a byte order mark.
func randomStream(rng *rand.Rand, n int) []byte {
	var b strings.Builder
	if rng.IntN(6) == 0 {
		b.WriteString(bom)
	}
	ends := []string{"\n", "\r", "\r\n"}
	for range n {
		b.WriteString(streamLines[rng.IntN(len(streamLines))])
		b.WriteString(ends[rng.IntN(len(ends))])
	}
	return []byte(b.String())
}

// splitRandomly cuts b into pieces at random points.
func splitRandomly(rng *rand.Rand, b []byte) [][]byte {
	var pieces [][]byte
	for len(b) > 0 {
		n := 1 + rng.IntN(min(len(b), 1+rng.IntN(200)))
		pieces = append(pieces, b[:n])
		b = b[n:]
	}
	return pieces
}

// TestEventParserMatchesPullPath feeds random streams, cut at random
// points, to the push parser and to the pull path it replaces on the
// reactor: the same events and comments must come out, in the same order,
// stamped with the same read, and an event above the size limit must fail
// both at the same point.
func TestEventParserMatchesPullPath(t *testing.T) {
	for seed := range uint64(5000) {
		rng := rand.New(rand.NewPCG(seed, 23))
		stream := randomStream(rng, 1+rng.IntN(60))
		pieces := splitRandomly(rng, stream)
		max := 1 << 20
		if rng.IntN(3) == 0 {
			max = 8 + rng.IntN(200)
		}
		want, got := pullParse(pieces, max), pushParse(pieces, max)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d, max %d, stream %q in %d pieces:\npush %s\npull %s",
				seed, max, stream, len(pieces), describeParsed(got), describeParsed(want))
		}
	}
}

// TestEventParserCases pins the parser's reading of the format where it
// follows go-sse rather than the letter of the specification.
func TestEventParserCases(t *testing.T) {
	cases := []struct {
		name, in string
		want     []parsed
	}{
		{"lines joined", "data: a\ndata: b\n\n", []parsed{{data: "a\nb"}}},
		{"CR and CRLF", "data: a\rdata: b\r\n\r\n", []parsed{{data: "a\nb"}}},
		{"type and id kept", "id: 1\nevent: t\ndata: x\n\ndata: y\n\n", []parsed{{typ: "t", id: "1", data: "x"}, {id: "1", data: "y"}}},
		{"retry alone dispatches nothing", "retry: 10\n\n", nil},
		{"id with NUL ignored", "id: a\x00\n\n", nil},
		{"comment before its event", "data: a\n: hi\n\n", []parsed{{comment: true, text: "hi"}, {data: "a"}}},
		{"cut off at the end", "data: a\n", nil},
		{"mark at the start", bom + ": c\ndata: a\n\n", []parsed{{comment: true, text: "c"}, {data: "a"}}},
		{"mark after blank lines", "\n" + bom + "data: a\n\n", []parsed{{data: "a"}}},
		{"late colon names nothing", "dataxx: y\n\n", nil},
		{"terminal event", "data: [DONE]\n\ndata: after\n\n", []parsed{{data: "[DONE]"}, {ended: true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := pushParse([][]byte{[]byte(c.in)}, 1<<20)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("%q: got %s, want %s", c.in, describeParsed(got), describeParsed(c.want))
			}
		})
	}
}

// TestEventParserSizeLimit fails an event above the limit, its blank
// lines before it counted, and passes one that fits.
func TestEventParserSizeLimit(t *testing.T) {
	fits := "data: " + strings.Repeat("x", 10) + "\n\n" // 18 bytes, the blank line's LF the 18th
	if got := pushParse([][]byte{[]byte(fits)}, 18); len(got) != 1 || got[0].data != strings.Repeat("x", 10) {
		t.Fatalf("an 18-byte event under an 18-byte limit: %s", describeParsed(got))
	}
	if got := pushParse([][]byte{[]byte(fits)}, 17); len(got) != 1 || !got[0].tooLarge {
		t.Fatalf("an 18-byte event under a 17-byte limit: %s", describeParsed(got))
	}
	if got := pushParse([][]byte{[]byte("\n\n\n\n" + fits)}, 18); len(got) != 1 || !got[0].tooLarge {
		t.Fatalf("blank lines before an event count against the limit: %s", describeParsed(got))
	}
}

// describeParsed prints parsed records for a failure message.
func describeParsed(ps []parsed) string {
	var b strings.Builder
	for _, p := range ps {
		switch {
		case p.tooLarge:
			b.WriteString(" [too large]")
		case p.ended:
			b.WriteString(" [ended]")
		case p.comment:
			fmt.Fprintf(&b, " comment(%q @%d)", p.text, p.at)
		default:
			fmt.Fprintf(&b, " event(type %q id %q data %q @%d)", p.typ, p.id, p.data, p.at)
		}
	}
	if b.Len() == 0 {
		return " (nothing)"
	}
	return b.String()
}

// FuzzEventParser feeds fuzzed streams, cut at a fuzzed point, to the push
// parser and to the pull path, under a small and the default size limit,
// and requires the same events, comments, stamps and failures.
func FuzzEventParser(f *testing.F) {
	f.Add([]byte("data: a\n\n"), uint16(3), false)
	f.Add([]byte(bom+": c\r\ndata: x\r\ndata: y\r\n\r\nid: 1\nevent: t\ndata\n\n"), uint16(20), true)
	f.Add([]byte("\r\n\n\ndata: [DONE]\r\rdata: after\n\n"), uint16(7), false)
	f.Fuzz(func(t *testing.T, in []byte, cut uint16, small bool) {
		max := 1 << 20
		if small {
			max = 16 + int(cut)%64
		}
		k := int(cut) % (len(in) + 1)
		pieces := [][]byte{in[:k], in[k:]}
		want, got := pullParse(pieces, max), pushParse(pieces, max)
		if !sameParse(got, want, in) {
			t.Fatalf("%q cut at %d, max %d:\npush %s\npull %s", in, k, max, describeParsed(got), describeParsed(want))
		}
	})
}

// sameParse reports whether two parses of in agree. go-sse's scanner reads
// at most max bytes at once, so a CRLF whose LF falls past its buffer
// gives that LF to the next event; the push parser, which sees the reads
// as they arrive, gives it to the event the CR ended. After such a CRLF
// the limit may then be reached a byte earlier on one side: with a CRLF
// in the stream, when either side failed on the size, what one side gave
// before its failure must be the start of what the other gave.
func sameParse(got, want []parsed, in []byte) bool {
	if reflect.DeepEqual(got, want) {
		return true
	}
	tooLarge := func(ps []parsed) bool { return len(ps) > 0 && ps[len(ps)-1].tooLarge }
	if !bytes.Contains(in, []byte("\r\n")) || !tooLarge(got) && !tooLarge(want) {
		return false
	}
	trim := func(ps []parsed) []parsed {
		if tooLarge(ps) {
			return ps[:len(ps)-1]
		}
		return ps
	}
	g, w := trim(got), trim(want)
	if len(g) > len(w) {
		g, w = w, g
	}
	return len(g) == 0 || reflect.DeepEqual(g, w[:len(g)])
}
