package runner

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/usefullatency/usefullatency/internal/redact"
)

// errorLog prints iteration errors once per distinct message, with the VU
// and iteration where it was first seen, and counts the repeats.
type errorLog struct {
	mu   sync.Mutex
	w    io.Writer
	seen map[string]int
}

func newErrorLog(w io.Writer) *errorLog {
	return &errorLog{w: w, seen: make(map[string]int)}
}

func (l *errorLog) log(vu, iter int64, err error) {
	msg := redact.Text(err.Error())
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen[msg]++
	if l.seen[msg] > 1 {
		return
	}
	first, _, _ := strings.Cut(msg, "\n")
	rest := strings.TrimPrefix(msg, first)
	// The fields end the first line, where logline finds them; the stack
	// follows as the rest of the record.
	fmt.Fprintf(l.w, "ERRO %s (further identical errors are counted, not printed)  vu=%d iter=%d source=stacktrace%s\n", first, vu, iter, rest)
}
