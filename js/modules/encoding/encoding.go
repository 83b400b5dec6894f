package k6encoding

import (
	"encoding/base64"
	"sort"
	"strings"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// encodings are the base64 variants of RFC 4648 by their k6 names: std
// (section 4, padded), rawstd (std without padding), url (section 5, the
// URL- and filename-safe alphabet, padded) and rawurl (url without padding).
var encodings = map[string]*base64.Encoding{
	"std":    base64.StdEncoding,
	"rawstd": base64.RawStdEncoding,
	"url":    base64.URLEncoding,
	"rawurl": base64.RawURLEncoding,
}

// encodingNames lists the names of encodings for error messages:
// `"rawstd", "rawurl", "std" or "url"`.
var encodingNames = func() string {
	names := make([]string, 0, len(encodings))
	for n := range encodings {
		names = append(names, `"`+n+`"`)
	}
	sort.Strings(names)
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}()

// codec is the "k6/encoding" module of one VU.
type codec struct{ rt *sobek.Runtime }

// newEncoding instantiates the "k6/encoding" module in vu.
func newEncoding(vu modules.VU) modules.Instance {
	c := &codec{rt: vu.Runtime()}
	named := map[string]any{"b64encode": c.b64encode, "b64decode": c.b64decode}
	return modules.Static{Default: named, Named: named}
}

// b64encode is b64encode(input, encoding = "std"): the base64 text of a
// string (its UTF-8 bytes) or of an ArrayBuffer or view.
func (c *codec) b64encode(call sobek.FunctionCall) sobek.Value {
	data := c.input("b64encode", call.Argument(0))
	_, enc := c.encoding("b64encode", call.Argument(1))
	return c.rt.ToValue(enc.EncodeToString(data))
}

// b64decode is b64decode(input, encoding = "std", format): the bytes that
// base64 text decodes to, as an ArrayBuffer, or as a string when format is
// "s" (bytes that are not UTF-8 become U+FFFD). Like k6, any other format
// string means ArrayBuffer.
func (c *codec) b64decode(call sobek.FunctionCall) sobek.Value {
	text := c.input("b64decode", call.Argument(0))
	name, enc := c.encoding("b64decode", call.Argument(1))
	asString := c.format(call.Argument(2))
	data, err := enc.DecodeString(string(text))
	if err != nil {
		panic(c.rt.NewTypeError("b64decode: the input is not %q base64: %v", name, err))
	}
	if asString {
		return c.rt.ToValue(string(data))
	}
	return c.rt.ToValue(c.rt.NewArrayBuffer(data))
}

// input returns the bytes of the input argument of fn or throws a TypeError.
func (c *codec) input(fn string, v sobek.Value) []byte {
	data, ok := modules.Bytes(c.rt, v)
	if !ok {
		panic(c.rt.NewTypeError("%s: input must be a string or an ArrayBuffer, not %s", fn, modules.TypeName(v)))
	}
	return data
}

// encoding returns the name and the encoding of the encoding argument of
// fn, std when it is omitted or empty, or throws a TypeError naming the
// known ones.
func (c *codec) encoding(fn string, v sobek.Value) (string, *base64.Encoding) {
	name := "std"
	switch {
	case v == nil || sobek.IsUndefined(v) || sobek.IsNull(v):
	case !sobek.IsString(v):
		panic(c.rt.NewTypeError("%s: encoding must be a string, not %s", fn, modules.TypeName(v)))
	case v.String() != "":
		name = v.String()
	}
	enc, ok := encodings[name]
	if !ok {
		panic(c.rt.NewTypeError("%s: unknown encoding %q: use %s", fn, name, encodingNames))
	}
	return name, enc
}

// format reports whether the format argument of b64decode asks for a
// string ("s"); it throws a TypeError when the argument is not a string.
func (c *codec) format(v sobek.Value) bool {
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
		return false
	}
	if !sobek.IsString(v) {
		panic(c.rt.NewTypeError("b64decode: format must be a string (\"s\" for a string result), not %s", modules.TypeName(v)))
	}
	return v.String() == "s"
}
