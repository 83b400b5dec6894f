package k6encoding_test

import (
	"strings"
	"testing"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/jstest"
)

// newVU initialises a real VU on a script that imports k6/encoding as
// `encoding` (default export) and as `named` (its named exports), and
// returns the VU's runtime.
func newVU(t testing.TB) *sobek.Runtime {
	t.Helper()
	src := `import encoding from 'k6/encoding';
import * as named from 'k6/encoding';
globalThis.encoding = encoding;
globalThis.named = named;
globalThis.bytes = (b) => new Uint8Array(b).buffer;
globalThis.list = (buf) => Array.from(new Uint8Array(buf)).join(',');
globalThis.ascii = (s) => bytes(Array.from(s, (ch) => ch.charCodeAt(0)));
export default function () {}
`
	return jstest.NewVU(t, src).Runtime()
}

// rfc4648 are the test vectors of RFC 4648, section 10.
var rfc4648 = []struct{ plain, std string }{
	{"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"},
	{"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
}

// TestRFC4648Vectors encodes and decodes the RFC's vectors in every
// encoding, from strings and from ArrayBuffers, through the default export
// and the named exports.
func TestRFC4648Vectors(t *testing.T) {
	rt := newVU(t)
	for _, v := range rfc4648 {
		raw := strings.TrimRight(v.std, "=")
		for name, val := range map[string]string{"P": v.plain, "S": v.std, "R": raw} {
			_ = rt.Set(name, val)
		}
		cases := []struct{ expr, want string }{
			{`encoding.b64encode(P)`, v.std},
			{`named.b64encode(P, 'std')`, v.std},
			{`encoding.b64encode(P, 'url')`, v.std}, // no + or / in these
			{`encoding.b64encode(P, 'rawstd')`, raw},
			{`encoding.b64encode(P, 'rawurl')`, raw},
			{`encoding.b64encode(ascii(P))`, v.std},
			{`encoding.b64decode(S, 'std', 's')`, v.plain},
			{`named.b64decode(R, 'rawstd', 's')`, v.plain},
			{`encoding.b64decode(R, 'rawurl', 's')`, v.plain},
			{`encoding.b64decode(S, 'url', 's')`, v.plain},
			{`encoding.b64decode(S) instanceof ArrayBuffer`, "true"},
			{`list(encoding.b64decode(S)) === list(ascii(P))`, "true"},
		}
		for _, c := range cases {
			got, err := rt.RunString(c.expr)
			if err != nil || got.String() != c.want {
				t.Errorf("%s with P=%q = %v (%v), want %q", c.expr, v.plain, got, err, c.want)
			}
		}
	}
}

// TestAlphabetsAndBinary checks what tells the four encodings apart, the
// bytes 0xfb 0xff (+ and / in std, - and _ in url), the bytes of typed
// arrays and DataViews (only the viewed part), and UTF-8 for strings.
func TestAlphabetsAndBinary(t *testing.T) {
	rt := newVU(t)
	cases := []struct{ expr, want string }{
		{`encoding.b64encode(bytes([0xfb, 0xff]))`, "+/8="},
		{`encoding.b64encode(bytes([0xfb, 0xff]), 'rawstd')`, "+/8"},
		{`encoding.b64encode(bytes([0xfb, 0xff]), 'url')`, "-_8="},
		{`encoding.b64encode(bytes([0xfb, 0xff]), 'rawurl')`, "-_8"},
		{`list(encoding.b64decode('+/8='))`, "251,255"},
		{`list(encoding.b64decode('-_8', 'rawurl'))`, "251,255"},
		{`encoding.b64encode(new Uint8Array([0, 0xfb, 0xff, 0]).subarray(1, 3))`, "+/8="},
		{`encoding.b64encode(new DataView(bytes([0, 0xfb, 0xff]), 1))`, "+/8="},
		{`encoding.b64encode('é')`, "w6k="},
		{`encoding.b64decode('w6k=', 'std', 's')`, "é"},
		{`encoding.b64decode('aGVsbG8gd29ybGQ=', '', 's')`, "hello world"},
		{`list(encoding.b64decode(bytes([0x2b, 0x2f, 0x38, 0x3d])))`, "251,255"},
		{`encoding.b64decode('aGk=', 'std', 'b') instanceof ArrayBuffer`, "true"},
	}
	for _, c := range cases {
		got, err := rt.RunString(c.expr)
		if err != nil || got.String() != c.want {
			t.Errorf("%s = %v (%v), want %q", c.expr, got, err, c.want)
		}
	}
}

// TestErrors checks that bad arguments throw a TypeError whose message
// names the function and the bad value.
func TestErrors(t *testing.T) {
	rt := newVU(t)
	cases := []struct{ expr, want string }{
		{`encoding.b64encode('x', 'base32')`, `TypeError: b64encode: unknown encoding "base32": use "rawstd", "rawurl", "std" or "url"`},
		{`encoding.b64decode('eA==', 'hex')`, `b64decode: unknown encoding "hex"`},
		{`encoding.b64encode('x', 64)`, "b64encode: encoding must be a string, not number"},
		{`encoding.b64encode(42)`, "TypeError: b64encode: input must be a string or an ArrayBuffer, not number"},
		{`encoding.b64encode()`, "b64encode: input must be a string or an ArrayBuffer, not undefined"},
		{`encoding.b64encode([1, 2])`, "not Array"},
		{`encoding.b64encode({})`, "not Object"},
		{`encoding.b64decode(null)`, "b64decode: input must be a string or an ArrayBuffer, not null"},
		{`encoding.b64decode('Zm9v!')`, `TypeError: b64decode: the input is not "std" base64: illegal base64 data at input byte 4`},
		{`encoding.b64decode('Zg', 'std')`, `the input is not "std" base64`},
		{`encoding.b64decode('Zg==', 'rawstd')`, `the input is not "rawstd" base64`},
		{`encoding.b64decode('-_8=', 'std')`, `the input is not "std" base64`},
		{`encoding.b64decode('+/8=', 'url')`, `the input is not "url" base64`},
		{`encoding.b64decode('Zg==', 'std', 1)`, "b64decode: format must be a string"},
	}
	for _, c := range cases {
		_, err := rt.RunString(c.expr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.expr, err, c.want)
		}
	}
}

// FuzzRoundTrip checks that b64decode inverts b64encode in every encoding
// for any bytes, given as an ArrayBuffer, and that the raw encodings are the
// padded ones without their padding.
func FuzzRoundTrip(f *testing.F) {
	for _, v := range rfc4648 {
		f.Add([]byte(v.plain))
	}
	f.Add([]byte{0xfb, 0xff, 0x00})
	rt := newVU(f)
	check, err := rt.RunString(`(buf) => ['std', 'rawstd', 'url', 'rawurl'].every((e) =>
		list(encoding.b64decode(encoding.b64encode(buf, e), e)) === list(buf))
		&& encoding.b64encode(buf, 'rawstd') === encoding.b64encode(buf).replace(/=+$/, '')
		&& encoding.b64encode(buf, 'rawurl') === encoding.b64encode(buf, 'url').replace(/=+$/, '')`)
	if err != nil {
		f.Fatal(err)
	}
	fn, _ := sobek.AssertFunction(check)
	f.Fuzz(func(t *testing.T, data []byte) {
		ok, err := fn(sobek.Undefined(), rt.ToValue(rt.NewArrayBuffer(data)))
		if err != nil || !ok.ToBoolean() {
			t.Errorf("round trip of %x: %v %v", data, ok, err)
		}
	})
}
