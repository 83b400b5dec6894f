package k6fs

import (
	"math"
	"path/filepath"

	"github.com/grafana/sobek"
)

// SeekMode says where File.seek counts its offset from: the script's
// SeekMode.Start, SeekMode.Current and SeekMode.End.
type SeekMode int

// The seek modes, with k6's values.
const (
	SeekStart   SeekMode = 0
	SeekCurrent SeekMode = 1
	SeekEnd     SeekMode = 2
)

// content is a file read once per run: its absolute path and its bytes,
// shared read-only by every VU's File.
type content struct {
	path string
	data []byte
}

// File is one VU's handle on an opened file: the shared bytes and the VU's
// own read position. Scripts see Path as file.path and the methods read,
// seek and stat; each returns a promise settled before it returns.
type File struct {
	// Path is the absolute path of the file.
	Path    string `js:"path"`
	content *content
	// offset is the read position, in bytes from the start; it may lie
	// past the end after a seek, where reads find nothing.
	offset int64
}

// Bytes returns the content of f, shared by every VU of the run: callers
// must not modify it. The CSV module parses it.
func Bytes(f *File) []byte { return f.content.data }

// Of returns the File a script value holds, or nil when it holds none.
func Of(v sobek.Value) *File {
	if v == nil {
		return nil
	}
	f, _ := v.Export().(*File)
	return f
}

// Read copies the bytes from the read position into buf, a Uint8Array, and
// moves the position past them. It resolves to the number of bytes copied,
// or null at the end of the file.
func (f *File) Read(call sobek.FunctionCall, rt *sobek.Runtime) sobek.Value {
	buf, ok := call.Argument(0).Export().([]byte)
	if !ok {
		return rejected(rt, &Error{Kind: TypeError, Message: "read(buffer): buffer must be a Uint8Array"})
	}
	data := f.content.data
	if f.offset >= int64(len(data)) {
		return resolved(rt, sobek.Null())
	}
	n := copy(buf, data[f.offset:])
	f.offset += int64(n)
	return resolved(rt, rt.ToValue(n))
}

// Seek moves the read position by offset bytes from the start, the current
// position or the end (whence, a SeekMode) and resolves to the new
// position. From the start the offset must be >= 0, from the end <= 0, and
// the new position must not be negative.
func (f *File) Seek(call sobek.FunctionCall, rt *sobek.Runtime) sobek.Value {
	offset, err := integer(call.Argument(0), "offset")
	if err == nil {
		var whence int64
		if whence, err = integer(call.Argument(1), "whence"); err == nil {
			err = f.seek(offset, SeekMode(whence))
		}
	}
	if err != nil {
		return rejected(rt, err)
	}
	return resolved(rt, rt.ToValue(f.offset))
}

// seek moves the read position, or says why it cannot.
func (f *File) seek(offset int64, whence SeekMode) *Error {
	var base int64
	switch whence {
	case SeekStart:
		if offset < 0 {
			return &Error{Kind: TypeError, Message: "seek(offset, SeekMode.Start): offset must be >= 0"}
		}
	case SeekCurrent:
		base = f.offset
	case SeekEnd:
		if offset > 0 {
			return &Error{Kind: TypeError, Message: "seek(offset, SeekMode.End): offset must be <= 0"}
		}
		base = int64(len(f.content.data))
	default:
		return &Error{Kind: TypeError, Message: "seek(offset, whence): whence must be SeekMode.Start, SeekMode.Current or SeekMode.End"}
	}
	if base+offset < 0 {
		return &Error{Kind: TypeError, Message: "seek: the new position would be before the start of the file"}
	}
	f.offset = base + offset
	return nil
}

// Stat resolves to the file's FileInfo: name (the base name) and size in
// bytes.
func (f *File) Stat(_ sobek.FunctionCall, rt *sobek.Runtime) sobek.Value {
	info := rt.NewObject()
	_ = info.Set("name", filepath.Base(f.Path))
	_ = info.Set("size", len(f.content.data))
	return resolved(rt, info)
}

// integer reads a whole number argument called name.
func integer(v sobek.Value, name string) (int64, *Error) {
	n, ok := v.Export().(int64)
	if ok {
		return n, nil
	}
	fl, ok := v.Export().(float64)
	if !ok || fl != math.Trunc(fl) || math.IsInf(fl, 0) {
		return 0, &Error{Kind: TypeError, Message: name + " must be a whole number"}
	}
	return int64(fl), nil
}

// resolved returns a promise resolved with v.
func resolved(rt *sobek.Runtime, v sobek.Value) sobek.Value {
	p, resolve, _ := rt.NewPromise()
	_ = resolve(v)
	return rt.ToValue(p)
}

// rejected returns a promise rejected with err.
func rejected(rt *sobek.Runtime, err *Error) sobek.Value {
	p, _, reject := rt.NewPromise()
	_ = reject(err.value(rt))
	return rt.ToValue(p)
}
