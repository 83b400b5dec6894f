package reactor

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httputil"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// pushed is what a framing made of a body's bytes handed to it in pieces.
type pushed struct {
	data     []byte // the body bytes next returned, in order
	err      error  // nil: the body ended cleanly
	ended    bool   // ended() when the pieces ran out or the body ended
	leftover int    // bytes after the body's end that next left (when ended)
}

// pushPieces hands pieces to f the way the reactor's push loop (sink.go)
// does, then the connection's end (io.EOF) if the body has not ended by
// then. After each piece it overwrites the piece's bytes, as the reactor
// reuses its read buffer, so a framing that kept a reference to them
// instead of a copy misparses what follows. It fails t when next breaks
// its contract: taking nothing, or returning bytes that are not b's.
func pushPieces(t *testing.T, f *framing, pieces [][]byte) pushed {
	t.Helper()
	var p pushed
	for i, piece := range pieces {
		b := piece
		for len(b) > 0 && !f.ended() {
			data, rest, err := f.next(b)
			if err != nil {
				p.err = err
				return p
			}
			if len(rest) >= len(b) {
				t.Fatalf("next took nothing of %s (%d bytes left), framing stuck", short(b), len(rest))
			}
			if len(data)+len(rest) > len(b) || !bytes.HasSuffix(b, rest) || !bytes.HasPrefix(b, data) {
				t.Fatalf("next(%s) returned data %s and rest %s, not a front and back of its input", short(b), short(data), short(rest))
			}
			p.data = append(p.data, data...)
			b = rest
		}
		if f.ended() {
			p.ended = true
			p.leftover = len(b)
			for _, q := range pieces[i+1:] {
				p.leftover += len(q)
			}
			return p
		}
		for j := range piece {
			piece[j] = 'g' // neither hex nor a line's end
		}
	}
	p.ended = f.ended()
	p.err = f.atEnd(io.EOF)
	return p
}

// whole is in as a single piece of its own.
func whole(in []byte) [][]byte {
	if len(in) == 0 {
		return nil
	}
	return [][]byte{bytes.Clone(in)}
}

// byteByByte is in one byte a piece.
func byteByByte(in []byte) [][]byte {
	pieces := make([][]byte, len(in))
	for i := range in {
		pieces[i] = []byte{in[i]}
	}
	return pieces
}

// split cuts a copy of in into 1 to 8 pieces at random points, or, for
// one input in twenty that is not too long, into single bytes.
func split(r *rand.Rand, in []byte) [][]byte {
	if len(in) == 0 {
		return nil
	}
	if len(in) <= 8<<10 && r.IntN(20) == 0 {
		return byteByByte(in)
	}
	cuts := []int{0, len(in)}
	for range r.IntN(min(len(in), 8)) {
		cuts = append(cuts, r.IntN(len(in)+1))
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	pieces := make([][]byte, 0, len(cuts)-1)
	for i := 1; i < len(cuts); i++ {
		pieces = append(pieces, bytes.Clone(in[cuts[i-1]:cuts[i]]))
	}
	return pieces
}

// short quotes b for a failure message, eliding its middle when long.
func short(b []byte) string {
	if len(b) <= 160 {
		return strconv.Quote(string(b))
	}
	return fmt.Sprintf("%q…(%d bytes)…%q", b[:80], len(b)-160, b[len(b)-80:])
}

// chunkedReference decodes in with net/http's own chunked reader, over a
// read buffer of the size the reactor's connections read responses
// through (readerSize), which bounds a chunk-size line as it bounds ours.
// It returns the data, how many bytes of in the reader took (up to the end
// of the last-chunk line, when it got there) and its error: nil when it
// read the last chunk.
func chunkedReference(in []byte) (data []byte, took int, err error) {
	src := bytes.NewReader(in)
	br := bufio.NewReaderSize(src, readerSize)
	data, err = io.ReadAll(httputil.NewChunkedReader(br))
	return data, len(in) - src.Len() - br.Buffered(), err
}

// trailerSection returns how many bytes of s, which follows a last-chunk
// line, the trailer section takes, or the error of a body that ends
// inside it. It is the rule framing.go states, not net/http's: trailer
// lines are skipped unparsed up to the first empty one (CRs before its LF
// aside), within maxTrailer bytes in all.
func trailerSection(s []byte) (int, error) {
	n := 0
	for {
		i := bytes.IndexByte(s[n:], '\n')
		if i < 0 {
			if len(s) >= maxTrailer {
				return 0, errTrailer
			}
			return 0, io.ErrUnexpectedEOF
		}
		line := s[n : n+i]
		n += i + 1
		if n > maxTrailer {
			return 0, errTrailer
		}
		if len(bytes.Trim(line, "\r")) == 0 {
			return n, nil
		}
	}
}

// expected is what a chunked body should come to: net/http's chunked
// reader decides up to the last chunk, trailerSection after it.
//
// The two differ by design here: net/http's chunked reader stops at the
// last-chunk line and leaves the trailer to net/http's body reader, which
// parses it as a MIME header (and limits it to its read buffer), while a
// pushed body's framing has to find the body's end itself, so it skips
// trailer lines up to the empty one. The data, and any error before the
// last chunk, are net/http's; whether the trailer ends the body, and where,
// is trailerSection's.
func expected(in []byte) (data []byte, took int, err error) {
	data, took, err = chunkedReference(in)
	if err != nil {
		return data, 0, err
	}
	n, err := trailerSection(in[took:])
	if err != nil {
		return data, 0, err
	}
	return data, took + n, nil
}

// chunked is a generated chunked body.
type chunked struct {
	b         []byte
	framing   []bool   // whether each byte of b is framing rather than data
	payload   []byte   // the data it carries, when valid
	sizeLines [][2]int // the [start, end) of each chunk-size line, CRLF included
	dataEnds  []int    // where each chunk's data ends: its CRLF starts
}

// add appends s to the body as framing or as data.
func (c *chunked) add(s string, framing bool) {
	c.b = append(c.b, s...)
	for range len(s) {
		c.framing = append(c.framing, framing)
	}
}

// extensions are chunk extensions that net/http strips.
var extensions = []string{";a=b", ";a", `;a="b;c"`, ";a=b;c=d", "; a = b"}

// whitespace is what may follow a chunk-size line's size or extension.
var whitespace = []string{" ", "\t", " \t "}

// sizeLine appends the chunk-size line of a chunk of n bytes: hex digits
// in either case, perhaps leading zeros (16 digits at most), an extension
// and trailing whitespace, when ornate.
func (c *chunked) sizeLine(r *rand.Rand, n int, ornate bool) {
	start := len(c.b)
	hex := []byte(strconv.FormatInt(int64(n), 16))
	if ornate && r.IntN(3) == 0 {
		hex = append(bytes.Repeat([]byte("0"), r.IntN(4)), hex...)
	}
	for i := range hex {
		if r.IntN(2) == 0 {
			hex[i] = bytes.ToUpper(hex[i : i+1])[0]
		}
	}
	line := string(hex)
	if ornate && r.IntN(3) == 0 {
		line += extensions[r.IntN(len(extensions))]
	}
	if ornate && r.IntN(4) == 0 {
		line += whitespace[r.IntN(len(whitespace))]
	}
	c.add(line+"\r\n", true)
	c.sizeLines = append(c.sizeLines, [2]int{start, len(c.b)})
}

// randomData returns n bytes, some of them framing's own.
func randomData(r *rand.Rand, n int) string {
	const lookalikes = "0123456789abcdef;\r\n \t"
	b := make([]byte, n)
	for i := range b {
		if r.IntN(4) == 0 {
			b[i] = lookalikes[r.IntN(len(lookalikes))]
		} else {
			b[i] = byte(r.IntN(256))
		}
	}
	return string(b)
}

// validChunked returns a well-formed chunked body: up to 7 chunks (or
// 50 to 149 for one in ten) of 1 to 300 bytes, then the last chunk,
// perhaps trailers, and the empty line.
//
// Its last-chunk line has no leading zeros, so it stays within 16 bytes
// (TestLastChunkSkipsNonDataLimit covers a long one).
func validChunked(r *rand.Rand) *chunked {
	c := &chunked{}
	n := r.IntN(8)
	if r.IntN(10) == 0 {
		n = 50 + r.IntN(100)
	}
	for range n {
		size := 1 + r.IntN(300)
		if r.IntN(5) == 0 {
			size = 1 + r.IntN(3)
		}
		c.sizeLine(r, size, true)
		data := randomData(r, size)
		c.add(data, false)
		c.payload = append(c.payload, data...)
		c.dataEnds = append(c.dataEnds, len(c.b))
		c.add("\r\n", true)
	}
	c.sizeLine(r, 0, false)
	if r.IntN(3) == 0 {
		c.b = c.b[:len(c.b)-2]
		c.framing = c.framing[:len(c.framing)-2]
		c.add(extensions[r.IntN(len(extensions))]+"\r\n", true)
		c.sizeLines[len(c.sizeLines)-1][1] = len(c.b)
	}
	for i := range r.IntN(3) {
		c.add(fmt.Sprintf("X-T%d: v\r\n", i), true)
	}
	c.add("\r\n", true)
	return c
}

// nonDataChunked returns a body of 10 to 59 chunks of one or two bytes
// whose chunk-size lines carry extensions of 14 to 1013 bytes: one that
// goes over net/http's limit of framing beyond the data, or not. For one
// in three a chunk of up to 12 KiB comes first: its data's allowance
// must not carry over to the chunks after it.
func nonDataChunked(r *rand.Rand) []byte {
	var b []byte
	if r.IntN(3) == 0 {
		n := 1 + r.IntN(12<<10)
		b = fmt.Appendf(b, "%x\r\n%s\r\n", n, strings.Repeat("d", n))
	}
	for range 10 + r.IntN(50) {
		n := 1 + r.IntN(2)
		b = fmt.Appendf(b, "%x;%s\r\n%s\r\n", n, strings.Repeat("e", 14+r.IntN(1000)), strings.Repeat("x", n))
	}
	return append(b, "0\r\n\r\n"...)
}

// framingAlphabet is what a corruption writes into framing.
const framingAlphabet = "0123456789abcdefABCDEFgG;= \t\r\n\x00\xff"

// randomFramingByte returns a byte a corruption writes.
func randomFramingByte(r *rand.Rand) byte {
	if r.IntN(4) == 0 {
		return byte(r.IntN(256))
	}
	return framingAlphabet[r.IntN(len(framingAlphabet))]
}

// framingAt returns a random offset of a framing byte of c.
func (c *chunked) framingAt(r *rand.Rand) int {
	for {
		if i := r.IntN(len(c.b)); c.framing[i] {
			return i
		}
	}
}

// corrupt returns c's body broken one way, named by the returned kind,
// and perhaps truncated too. The result may still be well-formed (a flip
// of a hex digit's case, say): the reference decides.
func corrupt(r *rand.Rand, c *chunked) (kind string, b []byte) {
	b = bytes.Clone(c.b)
	line := c.sizeLines[r.IntN(len(c.sizeLines))]
	hexEnd := line[0]
	for hexEnd < line[1] && strings.IndexByte("0123456789abcdefABCDEF", b[hexEnd]) >= 0 {
		hexEnd++
	}
	switch r.IntN(11) {
	case 0:
		kind = "flip"
		i := c.framingAt(r)
		b[i] = randomFramingByte(r)
	case 1:
		kind = "insert"
		b = slices.Insert(b, c.framingAt(r), randomFramingByte(r))
	case 2:
		kind = "delete"
		i := c.framingAt(r)
		b = slices.Delete(b, i, i+1)
	case 3:
		kind = "bare LF"
		b = slices.Delete(b, line[1]-2, line[1]-1)
	case 4:
		kind = "CR inside a size line"
		b = slices.Insert(b, line[0]+r.IntN(line[1]-1-line[0]), '\r')
	case 5:
		kind = "non-hex size"
		bad := []string{"g", "0x5", "-1", "+5", " 5", "5 5", "Z"}[r.IntN(7)]
		b = slices.Replace(b, line[0], hexEnd, []byte(bad)...)
	case 6:
		kind = "17-digit size"
		b = slices.Replace(b, line[0], hexEnd, []byte("0000000000000000"+string(b[line[0]:hexEnd]))...)
	case 7:
		kind = "no CRLF after data"
		if len(c.dataEnds) == 0 {
			return "valid", b
		}
		end := c.dataEnds[r.IntN(len(c.dataEnds))]
		b = slices.Replace(b, end, end+2, []byte([]string{"", "\n", "\r", "XX", "\n\r"}[r.IntN(5)])...)
	case 8:
		kind = "long size line"
		ext := ";" + strings.Repeat("e", 990+r.IntN(60)) // the line's length either side of readerSize
		b = slices.Insert(b, line[1]-2, []byte(ext)...)
	case 9:
		kind = "truncated"
		return kind, b[:r.IntN(len(b))]
	case 10:
		kind = "non-data"
		b = nonDataChunked(r)
	}
	if r.IntN(4) == 0 {
		kind += ", truncated"
		b = b[:r.IntN(len(b)+1)]
	}
	return kind, b
}

// TestChunkedDifferential decodes 2000 generated chunked bodies, half
// well-formed and half broken, each pushed in random pieces, and requires
// the data and the outcome net/http's own chunked reader (with the
// trailer rule framing.go states, see expected) comes to: the same bytes,
// the same clean end or the same error, and a clean end at the same byte.
// A well-formed body must also carry exactly its generated data, end with
// nothing left over, and read the same through net/http's whole response
// parser.
func TestChunkedDifferential(t *testing.T) {
	const cases = 2000
	for i := range cases {
		r := rand.New(rand.NewPCG(0x6672616d, uint64(i)))
		c := validChunked(r)
		kind, in := "valid", c.b
		var after []byte
		if i%2 == 1 {
			kind, in = corrupt(r, c)
		} else if r.IntN(4) == 0 {
			kind, after = "valid, then the next response", []byte("HTTP/1.1 200 OK\r\n\r\n")
			in = append(bytes.Clone(in), after...)
		}
		pieces := split(r, in)
		nPieces := len(pieces)
		got := pushPieces(t, &framing{kind: byChunks}, pieces)
		wantData, took, wantErr := expected(in)

		desc := fmt.Sprintf("case %d (%s, %d pieces) %s", i, kind, nPieces, short(in))
		if !bytes.Equal(got.data, wantData) {
			t.Fatalf("%s: decoded %d bytes %s, net/http %d bytes %s", desc, len(got.data), short(got.data), len(wantData), short(wantData))
		}
		switch {
		case wantErr == nil && got.err != nil:
			t.Fatalf("%s: error %q, net/http ends the body cleanly", desc, got.err)
		case wantErr != nil && got.err == nil:
			t.Fatalf("%s: clean end, net/http fails with %q", desc, wantErr)
		case wantErr != nil && got.err.Error() != wantErr.Error():
			t.Fatalf("%s: error %q, net/http's %q", desc, got.err, wantErr)
		case wantErr == nil && !got.ended:
			t.Fatalf("%s: clean end but not ended()", desc)
		case wantErr == nil && len(in)-got.leftover != took:
			t.Fatalf("%s: body ended after %d bytes, want %d", desc, len(in)-got.leftover, took)
		}

		if !strings.HasPrefix(kind, "valid") {
			continue
		}
		if !bytes.Equal(got.data, c.payload) {
			t.Fatalf("%s: decoded %s, want the generated %s", desc, short(got.data), short(c.payload))
		}
		if !got.ended || got.err != nil || got.leftover != len(after) {
			t.Fatalf("%s: ended() %v, error %v, %d bytes left over; want true, nil, %d", desc, got.ended, got.err, got.leftover, len(after))
		}
		head := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		resp, err := http.ReadResponse(bufio.NewReaderSize(io.MultiReader(strings.NewReader(head), bytes.NewReader(in)), readerSize), nil)
		if err != nil {
			t.Fatalf("%s: net/http's response parser: %v", desc, err)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil || !bytes.Equal(body, c.payload) {
			t.Fatalf("%s: net/http's body reader read %s, %v; want the generated %s", desc, short(body), err, short(c.payload))
		}
	}
}

// TestChunkedErrors feeds bodies built to break exactly one of net/http's
// chunked-coding rules, or to sit just inside one, whole and a byte at a
// time, and requires the error framing.go names for it, worded as
// net/http's chunked reader words the same input's, after the same data.
func TestChunkedErrors(t *testing.T) {
	nonData := func(chunks int) string {
		// 16 bytes of framing per chunk are free, plus twice its data:
		// "1;" + 526 bytes + CRLF is 512 over, 32 of them exactly 16 KiB.
		return strings.Repeat("1;"+strings.Repeat("e", 526)+"\r\nx\r\n", chunks) + "0\r\n\r\n"
	}
	sizeLine := func(n int) string { // a chunk-size line of n bytes, CRLF included
		return "1;" + strings.Repeat("e", n-4) + "\r\n"
	}
	tests := []struct {
		name string
		in   string
		want error // nil: a clean end
	}{
		{"empty body", "0\r\n\r\n", nil},
		{"16-digit size", "0000000000000005\r\nhello\r\n0\r\n\r\n", nil},
		{"extension and whitespace", "5;a=b \t\r\nhello\r\n0;z\r\n\r\n", nil},
		{"size line of readerSize bytes", sizeLine(readerSize) + "x\r\n0\r\n\r\n", nil},
		{"non-data at the limit", nonData(32), nil},

		{"bare LF ending a size line", "5\nhello\r\n0\r\n\r\n", errBareLF},
		{"bare LF ending the last-chunk line", "5\r\nhello\r\n0\n\r\n", errBareLF},
		{"CR inside a size line", "5\r;a=b\r\nhello\r\n0\r\n\r\n", errCR},
		{"CR CR LF", "5\r\r\nhello\r\n0\r\n\r\n", errCR},
		{"empty size", "\r\nhello\r\n", errEmptySize},
		{"extension without a size", ";a=b\r\nhello\r\n", errEmptySize},
		{"whitespace without a size", " \t\r\nhello\r\n", errEmptySize},
		{"non-hex size", "g\r\n", errSizeByte},
		{"0x prefix", "0x5\r\nhello\r\n0\r\n\r\n", errSizeByte},
		{"leading space", " 5\r\nhello\r\n0\r\n\r\n", errSizeByte},
		{"space before an extension", "5 ;a=b\r\nhello\r\n0\r\n\r\n", errSizeByte},
		{"bad size after a good chunk", "5\r\nhello\r\n-1\r\n", errSizeByte},
		{"17-digit size", "00000000000000005\r\nhello\r\n0\r\n\r\n", errSizeLarge},
		{"17-digit size of ones", "11111111111111111\r\n", errSizeLarge},
		{"size line over readerSize bytes", sizeLine(readerSize+1) + "x\r\n0\r\n\r\n", errLineTooLong},
		{"readerSize bytes without LF", strings.Repeat("0", readerSize), errLineTooLong},
		{"data not followed by CRLF", "5\r\nhelloXX0\r\n\r\n", errMalformed},
		{"data followed by a bare LF", "5\r\nhello\n0\r\n\r\n", errMalformed},
		{"data followed by LF CR", "5\r\nhello\n\r0\r\n\r\n", errMalformed},
		{"non-data over the limit", nonData(33), errNonData},
		{"non-data over the limit after much data", "2000\r\n" + strings.Repeat("d", 0x2000) + "\r\n" + nonData(33), errNonData},
		{"truncated size line", "5", io.ErrUnexpectedEOF},
		{"truncated data", "5\r\nhel", io.ErrUnexpectedEOF},
		{"truncated between data and CRLF", "5\r\nhello", io.ErrUnexpectedEOF},
		{"truncated inside CRLF after data", "5\r\nhello\r", io.ErrUnexpectedEOF},
		{"no last chunk", "5\r\nhello\r\n", io.ErrUnexpectedEOF},
		{"nothing", "", io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refData, _, refErr := chunkedReference([]byte(tt.in))
			switch {
			case tt.want == nil && refErr != nil:
				t.Fatalf("net/http fails with %q, the case wants a clean end", refErr)
			case tt.want != nil && (refErr == nil || refErr.Error() != tt.want.Error()):
				t.Fatalf("net/http's error is %v, the case wants %q", refErr, tt.want)
			}
			for _, way := range []struct {
				name   string
				pieces [][]byte
			}{{"whole", whole([]byte(tt.in))}, {"a byte at a time", byteByByte([]byte(tt.in))}} {
				got := pushPieces(t, &framing{kind: byChunks}, way.pieces)
				if got.err != tt.want {
					t.Fatalf("%s: error %v, want %v", way.name, got.err, tt.want)
				}
				if !bytes.Equal(got.data, refData) {
					t.Fatalf("%s: decoded %s, net/http %s", way.name, short(got.data), short(refData))
				}
				if tt.want == nil && (!got.ended || got.leftover != 0) {
					t.Fatalf("%s: ended() %v with %d bytes left over, want true with none", way.name, got.ended, got.leftover)
				}
			}
		})
	}
}

// TestChunkedTrailers checks the trailer section, which net/http's
// chunked reader leaves to its body reader: framing skips trailer lines up
// to the empty one, leaves what follows it, and fails a trailer that is
// truncated or longer than maxTrailer bytes, the empty line included.
func TestChunkedTrailers(t *testing.T) {
	long := func(n int) string { // a trailer section of n bytes
		return "X: " + strings.Repeat("v", n-7) + "\r\n\r\n"
	}
	tests := []struct {
		name     string
		in       string
		data     string
		want     error
		leftover int
	}{
		{"no trailer", "3\r\nabc\r\n0\r\n\r\n", "abc", nil, 0},
		{"two trailers", "3\r\nabc\r\n0\r\nX-A: 1\r\nX-B: 2\r\n\r\n", "abc", nil, 0},
		{"trailer then the next response", "0\r\nX-A: 1\r\n\r\nHTTP/1.1 200 OK\r\n", "", nil, 17},
		{"trailer that looks like a chunk", "0\r\n5\r\nhello\r\n\r\n", "", nil, 0},
		{"trailer section of maxTrailer bytes", "0\r\n" + long(maxTrailer), "", nil, 0},
		{"truncated trailer", "3\r\nabc\r\n0\r\nX-A: 1\r\n", "abc", io.ErrUnexpectedEOF, 0},
		{"truncated empty line", "0\r\nX-A: 1\r\n\r", "", io.ErrUnexpectedEOF, 0},
		{"trailer section over maxTrailer bytes", "0\r\n" + long(maxTrailer+1), "", errTrailer, 0},
		{"maxTrailer bytes without LF", "0\r\nX: " + strings.Repeat("v", maxTrailer), "", errTrailer, 0},
		{"many lines over maxTrailer bytes", "0\r\n" + strings.Repeat("X: "+strings.Repeat("v", 1000)+"\r\n", 66) + "\r\n", "", errTrailer, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, way := range []struct {
				name   string
				pieces [][]byte
			}{{"whole", whole([]byte(tt.in))}, {"a byte at a time", byteByByte([]byte(tt.in))}} {
				got := pushPieces(t, &framing{kind: byChunks}, way.pieces)
				if got.err != tt.want || string(got.data) != tt.data {
					t.Fatalf("%s: decoded %s, error %v; want %q, %v", way.name, short(got.data), got.err, tt.data, tt.want)
				}
				if tt.want == nil && (!got.ended || got.leftover != tt.leftover) {
					t.Fatalf("%s: ended() %v with %d bytes left over, want true with %d", way.name, got.ended, got.leftover, tt.leftover)
				}
			}
		})
	}
}

// TestFramingContentLength checks a body framed by its Content-Length:
// one shorter than its length is truncated at the connection's end, one
// of its length ends there and leaves the bytes after it, and an empty one
// has ended before any byte arrives.
func TestFramingContentLength(t *testing.T) {
	tests := []struct {
		name     string
		length   uint64
		pieces   []string
		data     string
		ended    bool
		leftover int
		atEOF    error // atEnd(io.EOF) once the pieces are taken
	}{
		{"short", 5, []string{"hel"}, "hel", false, 0, io.ErrUnexpectedEOF},
		{"short in pieces", 5, []string{"h", "el", "l"}, "hell", false, 0, io.ErrUnexpectedEOF},
		{"nothing", 5, nil, "", false, 0, io.ErrUnexpectedEOF},
		{"exact", 5, []string{"hello"}, "hello", true, 0, nil},
		{"exact in pieces", 5, []string{"he", "l", "lo"}, "hello", true, 0, nil},
		{"bytes after it", 5, []string{"helloHTTP/1.1"}, "hello", true, 8, nil},
		{"bytes after it in pieces", 5, []string{"he", "lloX", "YZ"}, "hello", true, 3, nil},
		{"empty", 0, []string{"HTTP/1.1"}, "", true, 8, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &framing{kind: byLength, left: tt.length}
			if f.ended() != (tt.length == 0) {
				t.Fatalf("ended() %v before any byte, want %v", f.ended(), tt.length == 0)
			}
			var pieces [][]byte
			for _, p := range tt.pieces {
				pieces = append(pieces, []byte(p))
			}
			got := pushPieces(t, f, pieces)
			if string(got.data) != tt.data || got.ended != tt.ended || got.leftover != tt.leftover {
				t.Fatalf("data %q, ended() %v, %d bytes left over; want %q, %v, %d", got.data, got.ended, got.leftover, tt.data, tt.ended, tt.leftover)
			}
			if err := f.atEnd(io.EOF); err != tt.atEOF {
				t.Fatalf("atEnd(io.EOF) = %v, want %v", err, tt.atEOF)
			}
			boom := errors.New("boom")
			if err := f.atEnd(boom); err != boom {
				t.Fatalf("atEnd(a read error) = %v, want the read error", err)
			}
		})
	}

	f := &framing{kind: byLength, left: 5}
	data, rest, err := f.next([]byte("helloHTTP/1.1"))
	if string(data) != "hello" || string(rest) != "HTTP/1.1" || err != nil || !f.ended() {
		t.Fatalf("next(%q) = %q, %q, %v and ended() %v; want %q, %q, nil and true", "helloHTTP/1.1", data, rest, err, f.ended(), "hello", "HTTP/1.1")
	}
}

// TestFramingUntilClose checks a body that ends with its connection:
// every byte is the body's, framing-like or not, it never ends by itself,
// the connection's end is its clean end and a read error its failure.
func TestFramingUntilClose(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 50 {
		in := []byte("0\r\n\r\n5\r\nhello" + randomData(r, r.IntN(3000)))
		f := &framing{kind: byClose}
		got := pushPieces(t, f, split(r, in))
		if !bytes.Equal(got.data, in) || got.ended {
			t.Fatalf("case %d: data %s, ended() %v; want all of %s, false", i, short(got.data), got.ended, short(in))
		}
		if got.err != nil {
			t.Fatalf("case %d: atEnd(io.EOF) = %v, want nil", i, got.err)
		}
		boom := errors.New("boom")
		for _, err := range []error{boom, io.ErrUnexpectedEOF} {
			if got := f.atEnd(err); got != err {
				t.Fatalf("case %d: atEnd(%v) = %v, want it back", i, err, got)
			}
		}
	}
}

// TestFramingOf checks the framing chosen for response heads net/http
// parsed: chunked when the Transfer-Encoding says so (whatever the
// Content-Length), else by the Content-Length, else up to the close, and
// none for a response that has no body.
func TestFramingOf(t *testing.T) {
	tests := []struct {
		head  string
		kind  framingKind
		left  uint64
		ended bool
	}{
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", byChunks, 0, false},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n", byChunks, 0, false},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", byChunks, 0, false},
		{"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", byLength, 5, false},
		{"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", byLength, 0, true},
		{"HTTP/1.1 200 OK\r\n\r\n", byClose, 0, false},
		{"HTTP/1.0 200 OK\r\n\r\n", byClose, 0, false},
		{"HTTP/1.1 204 No Content\r\n\r\n", byLength, 0, true},
		{"HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n", byLength, 0, true},
		// No body whatever the head says (net/http's NoBody).
		{"HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n", byLength, 0, true},
		{"HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n", byLength, 0, true},
		{"HEAD HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", byLength, 0, true},
		{"HEAD HTTP/1.1 200 OK\r\n\r\n", byLength, 0, true},
		{"HEAD HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", byLength, 0, true},
	}
	for _, tt := range tests {
		var req *http.Request
		if strings.HasPrefix(tt.head, "HEAD ") {
			tt.head = strings.TrimPrefix(tt.head, "HEAD ")
			req = &http.Request{Method: http.MethodHead}
		}
		resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(tt.head)), req)
		if err != nil {
			t.Fatalf("%q: net/http's parser: %v", tt.head, err)
		}
		f := framingOf(resp)
		if f.kind != tt.kind || f.left != tt.left || f.ended() != tt.ended {
			t.Fatalf("%q: framing kind %d, %d bytes left, ended() %v; want kind %d, %d, %v", tt.head, f.kind, f.left, f.ended(), tt.kind, tt.left, tt.ended)
		}
	}
}

// TestLastChunkSkipsNonDataLimit checks that, as in net/http, the limit
// on framing bytes does not fail the last-chunk line: it ends the body.
func TestLastChunkSkipsNonDataLimit(t *testing.T) {
	var in strings.Builder
	for range 32 {
		in.WriteString("1;" + strings.Repeat("e", 526) + "\r\nx\r\n")
	}
	in.WriteString("0;" + strings.Repeat("z", 13) + "\r\n\r\n")
	want, err := io.ReadAll(httputil.NewChunkedReader(bufio.NewReaderSize(strings.NewReader(in.String()), readerSize)))
	if err != nil || string(want) != strings.Repeat("x", 32) {
		t.Fatalf("net/http's reader: %q, %v", want, err)
	}
	f := &framing{kind: byChunks}
	var got []byte
	for b := []byte(in.String()); len(b) > 0 && !f.ended(); {
		var data []byte
		if data, b, err = f.next(b); err != nil {
			t.Fatalf("after %d bytes of data: %v", len(got), err)
		}
		got = append(got, data...)
	}
	if !f.ended() || string(got) != string(want) {
		t.Fatalf("ended %v with %q; want the body %q", f.ended(), got, want)
	}
}

// FuzzChunked feeds fuzzed bodies, cut at a fuzzed point, to the framing
// and to net/http's chunked reader (plus framing.go's trailer rule), and
// requires the same data and the same outcome.
func FuzzChunked(f *testing.F) {
	f.Add([]byte("5\r\nhello\r\n0\r\n\r\n"), uint16(3))
	f.Add([]byte("3;x=y\r\nabc\r\n0\r\nX-T: 1\r\n\r\nHTTP/1.1"), uint16(9))
	f.Add([]byte("zz\r\n"), uint16(1))
	f.Add([]byte("3\r\nabcXY"), uint16(4))
	f.Fuzz(func(t *testing.T, in []byte, cut uint16) {
		k := int(cut) % (len(in) + 1)
		got := pushPieces(t, &framing{kind: byChunks}, [][]byte{bytes.Clone(in[:k]), bytes.Clone(in[k:])})
		wantData, took, wantErr := expected(in)
		if !bytes.Equal(got.data, wantData) {
			t.Fatalf("%q cut at %d: decoded %q, net/http %q", in, k, got.data, wantData)
		}
		if (got.err == nil) != (wantErr == nil) {
			t.Fatalf("%q cut at %d: error %v, net/http's %v", in, k, got.err, wantErr)
		}
		if wantErr == nil && len(in)-got.leftover != took {
			t.Fatalf("%q cut at %d: body ended after %d bytes, want %d", in, k, len(in)-got.leftover, took)
		}
	})
}
