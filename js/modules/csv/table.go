package k6csv

import (
	"errors"
	"io"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	k6fs "github.com/usefullatency/usefullatency/js/modules/fs"
)

// sharedPrefix keys parsed files in the run's shared store.
const sharedPrefix = "k6/experimental/csv:"

// table is a file parsed once per run: its selected rows and, for
// asObjects, the header naming their fields. VUs read it, never write it.
type table struct {
	header []string
	rows   [][]string
}

// parse returns a promise of the rows of file under options, as a
// read-only array shared by every VU: the first VU that parses a file
// with given options builds the rows, the others reuse them. It rejects
// outside the init context, for a value that is not a File, bad options
// or a malformed file.
func parse(vu modules.VU, file, options sobek.Value) *sobek.Promise {
	rt := vu.Runtime()
	promise, resolve, reject := rt.NewPromise()
	if !vu.InInit() {
		_ = reject(jsError(rt, "csv.parse() is only available in the init context"))
		return promise
	}
	f := k6fs.Of(file)
	if f == nil {
		_ = reject(rt.NewTypeError("csv.parse(file, options): file must be a File from open() of k6/experimental/fs"))
		return promise
	}
	opts, err := parseOptions(rt, options)
	if err != nil {
		_ = reject(rt.NewTypeError("csv.parse: " + err.Error()))
		return promise
	}
	t, err := vu.State().Run.Shared.GetOrBuild(sharedPrefix+f.Path+"\x00"+opts.key(), func() (any, error) {
		return readTable(k6fs.Bytes(f), opts)
	})
	if err != nil {
		_ = reject(jsError(rt, "csv.parse("+f.Path+"): "+err.Error()))
		return promise
	}
	_ = resolve(rt.NewDynamicArray(&view{rt: rt, table: t.(*table)}))
	return promise
}

// readTable reads every selected row of data.
func readTable(data []byte, opts Options) (*table, error) {
	r := newReader(data, opts)
	t := &table{}
	for {
		row, err := r.next()
		if errors.Is(err, io.EOF) {
			t.header = r.header
			return t, nil
		}
		if err != nil {
			return nil, err
		}
		t.rows = append(t.rows, row)
	}
}

// view is one VU's read-only array over a shared table: each read of an
// element builds it anew (an array of strings, or an object), so a
// script's change to an element is never seen by another read.
type view struct {
	rt    *sobek.Runtime
	table *table
}

var _ sobek.DynamicArray = (*view)(nil)

func (v *view) Len() int { return len(v.table.rows) }

func (v *view) Get(i int) sobek.Value {
	if i < 0 || i >= len(v.table.rows) {
		return sobek.Undefined()
	}
	return rowValue(v.rt, v.table.header, v.table.rows[i])
}

func (v *view) Set(int, sobek.Value) bool {
	panic(v.rt.NewTypeError("the rows of csv.parse are read-only"))
}

func (v *view) SetLen(int) bool {
	panic(v.rt.NewTypeError("the rows of csv.parse are read-only"))
}

// rowValue returns a row as JavaScript: an array of its fields, or with a
// header an object mapping each header field to the row's field in the
// same column (an empty string when the row is shorter; fields past the
// header are dropped).
func rowValue(rt *sobek.Runtime, header, row []string) sobek.Value {
	if header == nil {
		fields := make([]any, len(row))
		for i, f := range row {
			fields[i] = f
		}
		return rt.NewArray(fields...)
	}
	obj := rt.NewObject()
	for i, name := range header {
		field := ""
		if i < len(row) {
			field = row[i]
		}
		_ = obj.Set(name, field)
	}
	return obj
}

// jsError returns a JavaScript Error with message.
func jsError(rt *sobek.Runtime, message string) sobek.Value {
	obj, err := rt.New(rt.Get("Error"), rt.ToValue(message))
	if err != nil {
		return rt.ToValue(message)
	}
	return obj
}
