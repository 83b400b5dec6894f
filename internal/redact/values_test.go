package redact

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestValuesText(t *testing.T) {
	var v Values
	if got := v.Text("abc123 stays"); got != "abc123 stays" {
		t.Errorf("empty set: Text = %q", got)
	}
	v.Add("")
	v.Add("abc123")
	v.Add("abc")       // a prefix of the first: the longer one still masks whole
	v.Add("abc123xyz") // one that begins with the first
	v.Add("abc123")    // again: ignored
	for _, c := range []struct{ in, want string }{
		{"token=abc123 and abc123", "token=" + ValueMask + " and " + ValueMask},
		{"abc123xyz!", ValueMask + "!"},
		{"abcd", ValueMask + "d"},
		{`{"t":"abc123"}`, `{"t":"` + ValueMask + `"}`},
		{"nothing here", "nothing here"},
		{"", ""},
	} {
		if got := v.Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestValuesWriter(t *testing.T) {
	var v Values
	var out bytes.Buffer
	w := v.Writer(&out)
	fmt.Fprintln(w, "before: s3cr3t")
	v.Add("s3cr3t")
	n, err := fmt.Fprintln(w, "INFO[0000] s3cr3t  source=console")
	if err != nil || n != len("INFO[0000] s3cr3t  source=console\n") {
		t.Errorf("Write = %d, %v; want the length of the unmasked line and no error", n, err)
	}
	want := "before: s3cr3t\nINFO[0000] " + ValueMask + "  source=console\n"
	if out.String() != want {
		t.Errorf("written %q, want %q (a value added later masks the lines after it)", out.String(), want)
	}
	if v.Writer(w) != w {
		t.Errorf("Writer of its own writer wraps it again")
	}
	var other Values
	if other.Writer(w) == w {
		t.Errorf("Writer of another set's writer returned it unchanged")
	}
}

// TestValuesConcurrent adds values while others write, for the race
// detector.
func TestValuesConcurrent(t *testing.T) {
	var v Values
	var mu sync.Mutex
	var out strings.Builder
	w := v.Writer(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return out.Write(p)
	}))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			v.Add(fmt.Sprintf("secret-%d", i))
			fmt.Fprintf(w, "secret-%d\n", i)
		})
	}
	wg.Wait()
	if strings.Contains(out.String(), "secret-") {
		t.Errorf("a value added before its line was written shows:\n%s", out.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
