package k6csv

import (
	"errors"
	"io"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	k6fs "github.com/usefullatency/usefullatency/js/modules/fs"
)

// Parser streams the rows of one file in one VU: each next() parses one
// more record of the file's shared bytes, so memory does not grow with
// the file.
type Parser struct {
	rt     *sobek.Runtime
	path   string
	reader *reader
}

// parserConstructor returns csv.Parser: new csv.Parser(file, options).
func parserConstructor(vu modules.VU) func(sobek.ConstructorCall) *sobek.Object {
	return func(call sobek.ConstructorCall) *sobek.Object {
		rt := vu.Runtime()
		f := k6fs.Of(call.Argument(0))
		if f == nil {
			panic(rt.NewTypeError("new csv.Parser(file, options): file must be a File from open() of k6/experimental/fs"))
		}
		opts, err := parseOptions(rt, call.Argument(1))
		if err != nil {
			panic(rt.NewTypeError("new csv.Parser: " + err.Error()))
		}
		p := &Parser{rt: rt, path: f.Path, reader: newReader(k6fs.Bytes(f), opts)}
		next := rt.ToValue(func(sobek.FunctionCall) sobek.Value { return rt.ToValue(p.Next()) })
		_ = call.This.DefineDataProperty("next", next, sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
		return nil
	}
}

// Next resolves to {done: false, value: row} with the next row, then to
// {done: true, value: undefined} for ever; it rejects on a malformed
// record.
func (p *Parser) Next() *sobek.Promise {
	promise, resolve, reject := p.rt.NewPromise()
	row, err := p.reader.next()
	res := p.rt.NewObject()
	switch {
	case errors.Is(err, io.EOF):
		_ = res.Set("done", true)
		_ = res.Set("value", sobek.Undefined())
	case err != nil:
		_ = reject(jsError(p.rt, "csv.Parser("+p.path+"): "+err.Error()))
		return promise
	default:
		_ = res.Set("done", false)
		_ = res.Set("value", rowValue(p.rt, p.reader.header, row))
	}
	_ = resolve(res)
	return promise
}
