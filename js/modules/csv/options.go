package k6csv

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/grafana/sobek"
)

// Options are the options of csv.parse and csv.Parser. Lines are the CSV
// records of the file counted from 0 (a quoted field may span several
// lines of text); the header, when there is one, is line 0.
type Options struct {
	// Delimiter separates the fields; ',' unless set.
	Delimiter rune
	// SkipFirstLine drops line 0.
	SkipFirstLine bool
	// AsObjects makes each row an object keyed by the fields of line 0,
	// which is then never a row itself.
	AsObjects bool
	// FromLine is the first line returned; 0 unless set.
	FromLine int
	// ToLine is the last line returned; -1 reads to the end.
	ToLine int
}

// defaultOptions are the options when a script gives none.
var defaultOptions = Options{Delimiter: ',', ToLine: -1}

// key identifies options in the run's shared store.
func (o Options) key() string {
	return fmt.Sprintf("%q/%t/%t/%d/%d", o.Delimiter, o.SkipFirstLine, o.AsObjects, o.FromLine, o.ToLine)
}

// parseOptions reads a script's options object; undefined gives the
// defaults. A value of the wrong type or out of range is an error naming
// the option.
func parseOptions(rt *sobek.Runtime, v sobek.Value) (Options, error) {
	o := defaultOptions
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
		return o, nil
	}
	obj, ok := v.(*sobek.Object)
	if !ok {
		return o, fmt.Errorf("options must be an object")
	}
	if d := obj.Get("delimiter"); present(d) {
		s, ok := d.Export().(string)
		r, size := utf8.DecodeRuneInString(s)
		if !ok || size == 0 || size != len(s) || r == '"' || r == '\r' || r == '\n' || r == utf8.RuneError {
			return o, fmt.Errorf("options.delimiter must be one character (not a quote or a line break), got %s", d)
		}
		o.Delimiter = r
	}
	var err error
	if o.SkipFirstLine, err = boolean(obj.Get("skipFirstLine"), "skipFirstLine"); err != nil {
		return o, err
	}
	if o.AsObjects, err = boolean(obj.Get("asObjects"), "asObjects"); err != nil {
		return o, err
	}
	if o.FromLine, err = line(obj.Get("fromLine"), "fromLine", 0); err != nil {
		return o, err
	}
	if o.ToLine, err = line(obj.Get("toLine"), "toLine", -1); err != nil {
		return o, err
	}
	if o.ToLine >= 0 && o.ToLine < o.FromLine {
		return o, fmt.Errorf("options.toLine (%d) must not be less than options.fromLine (%d)", o.ToLine, o.FromLine)
	}
	return o, nil
}

// present reports whether an option is set.
func present(v sobek.Value) bool {
	return v != nil && !sobek.IsUndefined(v) && !sobek.IsNull(v)
}

// boolean reads a boolean option; unset is false.
func boolean(v sobek.Value, name string) (bool, error) {
	if !present(v) {
		return false, nil
	}
	b, ok := v.Export().(bool)
	if !ok {
		return false, fmt.Errorf("options.%s must be a boolean, got %s", name, v)
	}
	return b, nil
}

// line reads a line number option: a whole number >= 0; unset is def.
func line(v sobek.Value, name string, def int) (int, error) {
	if !present(v) {
		return def, nil
	}
	switch n := v.Export().(type) {
	case int64:
		if n >= 0 && n <= math.MaxInt32 {
			return int(n), nil
		}
	case float64:
		if n >= 0 && n <= math.MaxInt32 && n == math.Trunc(n) {
			return int(n), nil
		}
	}
	return 0, fmt.Errorf("options.%s must be a whole number >= 0, got %s", name, v)
}
