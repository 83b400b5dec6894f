package k6http

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// fileData is what http.file returns: a file part of a multipart body.
// The script sees data, filename and content_type, as in k6.
type fileData struct {
	Data        any    `js:"data"`
	Filename    string `js:"filename"`
	ContentType string `js:"content_type"`
	bytes       []byte
}

// file is http.file(data, filename, contentType): data is a string or an
// ArrayBuffer (or typed array); the filename defaults to the current time
// in nanoseconds and the content type to application/octet-stream, as in
// k6.
func (h *HTTP) file(data sobek.Value, args ...sobek.Value) (*fileData, error) {
	b, ok := modules.Bytes(h.vu.Runtime(), data)
	if isNullish(data) || !ok {
		return nil, fmt.Errorf("k6/http: file: the data must be a string or an ArrayBuffer, got %s", typeName(data))
	}
	f := &fileData{
		Data: data.Export(), bytes: bytes.Clone(b),
		Filename: strconv.FormatInt(time.Now().UnixNano(), 10), ContentType: "application/octet-stream",
	}
	if len(args) > 0 && !isNullish(args[0]) {
		f.Filename = args[0].String()
	}
	if len(args) > 1 && !isNullish(args[1]) {
		f.ContentType = args[1].String()
	}
	return f, nil
}

// typeName names the JavaScript type of v, for messages.
func typeName(v sobek.Value) string {
	if v == nil || sobek.IsUndefined(v) {
		return "undefined"
	}
	if sobek.IsNull(v) {
		return "null"
	}
	return v.ExportType().String()
}

// hasFile reports whether one of the object's values is an http.file.
func hasFile(obj *sobek.Object) bool {
	for _, k := range obj.Keys() {
		if _, ok := obj.Get(k).Export().(*fileData); ok {
			return true
		}
	}
	return false
}

// quoteEscaper escapes the quotes and backslashes of a name in a
// Content-Disposition header.
var quoteEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// multipartBody encodes the object as multipart/form-data: http.file
// values as file parts with their filename and content type, other values
// as form fields (an array repeats the field), keys in sorted order. It
// returns the body and its Content-Type with the boundary.
func multipartBody(obj *sobek.Object) ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	keys := obj.Keys()
	sort.Strings(keys)
	for _, k := range keys {
		if err := writePart(w, k, obj.Get(k)); err != nil {
			return nil, "", err
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// writePart writes the part or parts of one key.
func writePart(w *multipart.Writer, key string, v sobek.Value) error {
	switch x := v.Export().(type) {
	case *fileData:
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`,
			quoteEscaper.Replace(key), quoteEscaper.Replace(x.Filename)))
		h.Set("Content-Type", x.ContentType)
		part, err := w.CreatePart(h)
		if err == nil {
			_, err = part.Write(x.bytes)
		}
		return err
	case []any:
		for _, e := range x {
			if err := w.WriteField(key, fmt.Sprint(e)); err != nil {
				return err
			}
		}
		return nil
	}
	return w.WriteField(key, v.String())
}
