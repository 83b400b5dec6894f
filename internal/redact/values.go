package redact

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"sync"
)

// ValueMask replaces a secret value that Values knows, as k6 masks the
// values of its secret sources in every log line.
const ValueMask = "***SECRET_REDACTED***"

// Values is a set of secret values, masked wherever they appear in a text:
// the values k6/secrets handed to a script. Values are only added, never
// removed. The zero Values is empty and ready; it is safe for concurrent
// use.
type Values struct {
	mu       sync.RWMutex
	values   []string
	replacer *strings.Replacer // nil while there is no value
}

// Add adds value to the set; the empty string and a value already in it
// are ignored.
func (v *Values) Add(value string) {
	if value == "" {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if slices.Contains(v.values, value) {
		return
	}
	v.values = append(v.values, value)
	// Longest first: strings.Replacer tries the old strings in argument
	// order at each position, so a value that begins with a shorter one
	// is masked whole rather than left with its tail showing.
	sorted := slices.Clone(v.values)
	slices.SortStableFunc(sorted, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(sorted))
	for _, s := range sorted {
		pairs = append(pairs, s, ValueMask)
	}
	v.replacer = strings.NewReplacer(pairs...)
}

// Text returns s with every occurrence of every value replaced by
// ValueMask.
func (v *Values) Text(s string) string {
	r := v.current()
	if r == nil {
		return s
	}
	return r.Replace(s)
}

func (v *Values) current() *strings.Replacer {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.replacer
}

// Writer returns a writer that masks the values in what each call to
// Write carries, then writes it to w. A value split across two calls is
// not seen: every log line of the program is written in one call. Writer
// of a writer that v already wraps returns it unchanged.
func (v *Values) Writer(w io.Writer) io.Writer {
	if vw, ok := w.(*valuesWriter); ok && vw.values == v {
		return w
	}
	return &valuesWriter{values: v, w: w}
}

// valuesWriter is the writer of Values.Writer.
type valuesWriter struct {
	values *Values
	w      io.Writer
}

// Write writes p with the values masked and reports all of p written
// when the masked text was.
func (vw *valuesWriter) Write(p []byte) (int, error) {
	r := vw.values.current()
	if r == nil || len(p) == 0 {
		return vw.w.Write(p)
	}
	var b bytes.Buffer
	if _, err := r.WriteString(&b, string(p)); err != nil {
		return 0, err
	}
	if _, err := vw.w.Write(b.Bytes()); err != nil {
		return 0, err
	}
	return len(p), nil
}
