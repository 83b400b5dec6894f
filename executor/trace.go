package executor

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/options"
)

// Trace is a trace-replay scenario's file, read once per run: when each
// row is due and the row itself.
type Trace struct {
	// Due[i] is when row i is due after the scenario start (TraceDue).
	Due []time.Duration
	// Rows[i] is row i as a JSON object: a JSONL line as written, a CSV
	// record as strings under the header's names.
	Rows [][]byte
}

// Len returns the number of rows.
func (t *Trace) Len() int64 { return int64(len(t.Rows)) }

// ParseTrace reads the trace file name (data is its content) of the
// trace-replay scenario sc: its format, timestampField, timeUnit and
// speed. It refuses, naming the file and line, a row without the
// timestamp field, a timestamp that is not a finite number, a row whose
// timestamp is before the previous row's (the file must be sorted), and a
// file without rows.
func ParseTrace(name string, data []byte, sc options.Scenario) (*Trace, error) {
	var ts []float64
	var rows [][]byte
	add := func(line int, raw string, row []byte) error {
		t, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
		if err != nil || math.IsInf(t, 0) || math.IsNaN(t) {
			return fmt.Errorf("trace %s line %d: %s %q is not a number", name, line, sc.TimestampField, raw)
		}
		if n := len(ts); n > 0 && t < ts[n-1] {
			return fmt.Errorf("trace %s line %d: %s %v is before the previous row's %v: rows must be sorted by %s",
				name, line, sc.TimestampField, t, ts[n-1], sc.TimestampField)
		}
		ts, rows = append(ts, t), append(rows, row)
		return nil
	}
	var err error
	if sc.TraceFormat() == options.TraceCSV {
		err = readCSVTrace(name, data, sc.TimestampField, add)
	} else {
		err = readJSONLTrace(name, data, sc.TimestampField, add)
	}
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("trace %s has no rows", name)
	}
	return &Trace{Due: TraceDue(ts, time.Duration(sc.TimeUnit), sc.Speed), Rows: rows}, nil
}

// rowFunc takes one row: its line, its timestamp's text and the row as JSON.
type rowFunc func(line int, timestamp string, row []byte) error

// readJSONLTrace reads one JSON object per non-blank line.
func readJSONLTrace(name string, data []byte, field string, add rowFunc) error {
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(line, &obj); err != nil || obj == nil {
			return fmt.Errorf("trace %s line %d: not a JSON object", name, i+1)
		}
		raw, ok := obj[field]
		if !ok {
			return fmt.Errorf("trace %s line %d: no %q field", name, i+1, field)
		}
		text := string(raw)
		var s string
		if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
			text = s // a number written as a string
		}
		if err := add(i+1, text, line); err != nil {
			return err
		}
	}
	return nil
}

// readCSVTrace reads a header line and the records under it.
func readCSVTrace(name string, data []byte, field string, add rowFunc) error {
	r := csv.NewReader(bytes.NewReader(data))
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("trace %s: %w", name, err)
	}
	col := -1
	for i, h := range header {
		if h == field {
			col = i
		}
	}
	if col < 0 {
		return fmt.Errorf("trace %s line 1: the header has no %q column", name, field)
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("trace %s: %w", name, err)
		}
		line, _ := r.FieldPos(0)
		obj := make(map[string]string, len(header))
		for i, h := range header {
			obj[h] = rec[i]
		}
		row, _ := json.Marshal(obj)
		if err := add(line, rec[col], row); err != nil {
			return err
		}
	}
}
