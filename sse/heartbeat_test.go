package sse

import (
	"bytes"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	gosse "github.com/tmaxmax/go-sse"
)

// chunkReader returns its data in reads of the given sizes, cycling.
type chunkReader struct {
	data  []byte
	sizes []int
	n     int
}

// Read implements io.Reader.
func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	size := c.sizes[c.n%len(c.sizes)]
	c.n++
	size = min(size, len(p), len(c.data))
	copy(p, c.data[:size])
	c.data = c.data[size:]
	return size, nil
}

// refComments lists the comment lines of a whole stream: the reference the
// byte-stream watcher must agree with whatever the chunking.
func refComments(s string) []string {
	s = strings.TrimPrefix(s, bom)
	var out []string
	for {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			return out
		}
		if line := s[:i]; strings.HasPrefix(line, ":") {
			text := clipBytes(line[1:], maxCommentLen)
			out = append(out, strings.TrimPrefix(text, " "))
		}
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
}

// clipBytes cuts s to n bytes.
func clipBytes(s string, n int) string { return s[:min(n, len(s))] }

// watched is what reading a stream through commentReader and go-sse gave.
type watched struct {
	bytes    []byte
	comments []string
	events   []gosse.Event
	order    []string
}

// watch reads data in chunks of the given sizes through commentReader and
// go-sse, recording everything.
func watch(data []byte, sizes []int) watched {
	var w watched
	cr := newCommentReader(&chunkReader{data: data, sizes: sizes}, func() time.Duration { return 0 },
		func(text string, _ time.Duration) error {
			w.comments = append(w.comments, text)
			w.order = append(w.order, ":"+text)
			return nil
		})
	tee := io.TeeReader(cr, writerFunc(func(p []byte) { w.bytes = append(w.bytes, p...) }))
	for e, err := range gosse.Read(tee, &gosse.ReadConfig{MaxEventSize: 1 << 20}) {
		if err != nil {
			break
		}
		w.events = append(w.events, e)
		w.order = append(w.order, e.Data)
	}
	return w
}

// writerFunc adapts a function to io.Writer.
type writerFunc func(p []byte)

// Write implements io.Writer.
func (f writerFunc) Write(p []byte) (int, error) {
	f(p)
	return len(p), nil
}

// goSSEEvents parses a whole stream with go-sse alone.
func goSSEEvents(data []byte) []gosse.Event {
	var out []gosse.Event
	for e, err := range gosse.Read(bytes.NewReader(data), &gosse.ReadConfig{MaxEventSize: 1 << 20}) {
		if err != nil {
			break
		}
		out = append(out, e)
	}
	return out
}

// checkWatch asserts the watcher's properties on one input and chunking:
// bytes pass unchanged, comments match the reference, events match go-sse's
// reading of the whole input.
func checkWatch(t *testing.T, data []byte, sizes []int) watched {
	t.Helper()
	w := watch(data, sizes)
	if !bytes.Equal(w.bytes, data) {
		t.Fatalf("sizes %v: bytes changed:\n%q\n%q", sizes, w.bytes, data)
	}
	if want := refComments(string(data)); !reflect.DeepEqual(w.comments, want) && (len(w.comments) > 0 || len(want) > 0) {
		t.Fatalf("sizes %v: comments %q, want %q", sizes, w.comments, want)
	}
	if want := goSSEEvents(data); !reflect.DeepEqual(w.events, want) && (len(w.events) > 0 || len(want) > 0) {
		t.Fatalf("sizes %v: events %v, want %v", sizes, w.events, want)
	}
	return w
}

// TestCommentReader checks comment detection and stream order over line
// endings, BOMs and every small chunking.
func TestCommentReader(t *testing.T) {
	cases := []struct {
		name  string
		in    string
		order string
	}{
		{"LF", ": a\n\ndata: 1\n\n: b\ndata: 2\n\n", ":a,1,:b,2"},
		{"CRLF", ": a\r\n\r\ndata: 1\r\n\r\n:b\r\ndata: 2\r\n\r\n", ":a,1,:b,2"},
		{"CR", ": a\r\rdata: 1\r\r:  b\rdata: 2\r\r", ":a,1,: b,2"},
		{"BOM", "\xEF\xBB\xBF: a\n\ndata: 1\n\n", ":a,1"},
		{"partial BOM", "\xEF\xBB: a\n\ndata: 1\n\n", "1"},
		{"BOM once", "\xEF\xBB\xBF\xEF\xBB\xBF: a\n\ndata: 1\n\n", "1"},
		{"colon mid-line", "data: a:b\n\n:c\n\n", "a:b,:c"},
		{"empty comment", ":\n\ndata: x\n\n", ":,x"},
		{"comment in event", "data: 1\n: mid\ndata: 2\n\n", ":mid,1\n2"},
		{"comments in one read", ":a\n:b\n:c\ndata: x\n\n", ":a,:b,:c,x"},
		{"unterminated comment", "data: x\n\n: never ends", "x"},
		{"mixed endings", ":a\r\n:b\r:c\ndata: x\r\n\n", ":a,:b,:c,x"},
		{"data field without space", "data:x\n\n", "x"},
	}
	sizings := [][]int{{1}, {2}, {3}, {5}, {7}, {1, 4, 2}, {4096}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, sizes := range sizings {
				w := checkWatch(t, []byte(tc.in), sizes)
				if got := strings.Join(w.order, ","); got != tc.order {
					t.Errorf("sizes %v: order %q, want %q", sizes, got, tc.order)
				}
			}
		})
	}
}

// TestCommentReaderLongComment checks that long comments are truncated but
// still counted once.
func TestCommentReaderLongComment(t *testing.T) {
	long := ": " + strings.Repeat("p", maxCommentLen*2) + "\n\ndata: x\n\n"
	w := checkWatch(t, []byte(long), []int{100})
	if len(w.comments) != 1 || len(w.comments[0]) != maxCommentLen-1 {
		t.Errorf("%d comments, first %d bytes", len(w.comments), len(w.comments[0]))
	}
}

// TestCommentReaderRandom checks the properties on random SSE-like streams
// with random chunkings.
func TestCommentReaderRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"data: x", "data:", ":", ": ping", "event: e", "id: 1", "\n", "\r", "\r\n", "\n\n", "\xEF\xBB\xBF", "retry: 5", "d"}
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		sizes := []int{1 + rng.IntN(8), 1 + rng.IntN(3), 1 + rng.IntN(64)}
		checkWatch(t, []byte(b.String()), sizes)
	}
}

// FuzzCommentReader checks, for any bytes and chunking, that the watcher
// passes bytes unchanged, agrees with the reference on comments, and does not
// change what go-sse parses.
func FuzzCommentReader(f *testing.F) {
	f.Add([]byte(": a\r\ndata: 1\r\n\r\n"), uint8(1))
	f.Add([]byte("\xEF\xBB\xBF:x\r:y\n\ndata: z\n\n"), uint8(2))
	f.Add([]byte("data: a\n: b\ndata: c\n\n"), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		checkWatch(t, data, []int{int(size%16) + 1, int(size/16) + 1})
	})
}
