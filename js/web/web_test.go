package web

import (
	"strings"
	"testing"

	"github.com/grafana/sobek"
)

func newRuntime(t *testing.T) *sobek.Runtime {
	t.Helper()
	rt := sobek.New()
	if err := Install(rt); err != nil {
		t.Fatal(err)
	}
	return rt
}

type jsCase struct{ name, expr, want string }

// runCases evaluates each expression in a fresh runtime and compares its
// string value; a want starting with "throws " expects an exception whose
// message contains the rest.
func runCases(t *testing.T, cases []jsCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := newRuntime(t).RunString(tc.expr)
			if msg, ok := strings.CutPrefix(tc.want, "throws "); ok {
				if err == nil || !strings.Contains(err.Error(), msg) {
					t.Fatalf("%s: err = %v, want an exception containing %q", tc.expr, err, msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.expr, err)
			}
			if got := v.String(); got != tc.want {
				t.Fatalf("%s\n got %s\nwant %s", tc.expr, got, tc.want)
			}
		})
	}
}

func TestTextEncoderDecoder(t *testing.T) {
	runCases(t, []jsCase{
		{"encode multi-byte", `Array.from(new TextEncoder().encode('aé€😀')).join()`, "97,195,169,226,130,172,240,159,152,128"},
		{"encode returns Uint8Array", `new TextEncoder().encode('x') instanceof Uint8Array`, "true"},
		{"encode a lone surrogate as U+FFFD", `Array.from(new TextEncoder().encode('\uD800')).join()`, "239,191,189"},
		{"encode nothing", `new TextEncoder().encode().length`, "0"},
		{"encoding", `new TextEncoder().encoding + ' ' + new TextDecoder().encoding`, "utf-8 utf-8"},
		{"encodeInto stops before a code point that does not fit", `
const d = new Uint8Array(5); const r = new TextEncoder().encodeInto('a€😀', d);
r.read + ',' + r.written + ',' + Array.from(d).join()`, "2,4,97,226,130,172,0"},
		{"encodeInto needs a Uint8Array", `new TextEncoder().encodeInto('a', [])`, "throws TextEncoder.encodeInto: destination must be a Uint8Array"},
		{"round trip", `new TextDecoder().decode(new TextEncoder().encode('héllo 😀'))`, "héllo 😀"},
		{"decode ArrayBuffer", `new TextDecoder().decode(new Uint8Array([0xe2, 0x82, 0xac]).buffer)`, "€"},
		{"decode a DataView window", `new TextDecoder().decode(new DataView(new Uint8Array([120, 0x41, 0x42, 121]).buffer, 1, 2))`, "AB"},
		{"decode a TypedArray window", `new TextDecoder().decode(new Uint8Array([120, 0x41, 0x42, 121]).subarray(1, 3))`, "AB"},
		{"decode nothing", `new TextDecoder().decode()`, ""},
		{"invalid bytes replaced", `new TextDecoder().decode(new Uint8Array([0x61, 0xff, 0xe2, 0x82, 0x62]))`, "a\uFFFD\uFFFDb"},
		{"invalid bytes fatal", `new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0x61, 0xff]))`, "throws TypeError: TextDecoder.decode: the encoded data is not valid utf-8"},
		{"fatal flag visible", `new TextDecoder('utf8', { fatal: true }).fatal`, "true"},
		{"BOM stripped", `new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])).length`, "1"},
		{"BOM kept with ignoreBOM", `new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])).charCodeAt(0)`, "65279"},
		{"stream across calls", `
const d = new TextDecoder(); const b = new TextEncoder().encode('€😀');
d.decode(b.subarray(0, 2), { stream: true }) + d.decode(b.subarray(2, 5), { stream: true }) + d.decode(b.subarray(5))`, "€😀"},
		{"labels are case-insensitive", `new TextDecoder(' UTF-8 ').encoding`, "utf-8"},
		{"other encodings rejected", `new TextDecoder('latin1')`, `throws RangeError: TextDecoder: the encoding "latin1" is not supported`},
		{"decode of a string rejected", `new TextDecoder().decode('abc')`, `throws TypeError: TextDecoder.decode: input must be an ArrayBuffer, a TypedArray or a DataView, got "abc"`},
	})
}

func TestURL(t *testing.T) {
	parts := func(u string) string {
		return `const u = ` + u + `; [u.href, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin].join(' | ')`
	}
	runCases(t, []jsCase{
		{"all parts with credentials", parts(`new URL('HTTPS://user:pa%20ss@Example.COM:8080/a/./b/../c?x=1&y=2#frag')`),
			"https://user:pa%20ss@example.com:8080/a/c?x=1&y=2#frag | https: | user | pa%20ss | example.com:8080 | example.com | 8080 | /a/c | ?x=1&y=2 | #frag | https://example.com:8080"},
		{"IPv6 host and default port", parts(`new URL('http://[2001:DB8::1]:80/p')`),
			"http://[2001:db8::1]/p | http: |  |  | [2001:db8::1] | [2001:db8::1] |  | /p |  |  | http://[2001:db8::1]"},
		{"IPv6 host with a port", `new URL('http://[::1]:8080').host`, "[::1]:8080"},
		{"empty path of a special scheme is /", `new URL('https://example.com').href`, "https://example.com/"},
		{"port normalised", `new URL('http://h:0081/').port`, "81"},
		{"percent-encoding of spaces and non-ASCII", parts(`new URL('https://example.com/a b/ü?q=a b&ü=1#f g')`),
			"https://example.com/a%20b/%C3%BC?q=a%20b&%C3%BC=1#f%20g | https: |  |  | example.com | example.com |  | /a%20b/%C3%BC | ?q=a%20b&%C3%BC=1 | #f%20g | https://example.com"},
		{"existing escapes kept", `new URL('http://h/%2F%41?a=%26').href`, "http://h/%2F%41?a=%26"},
		{"relative path against a base", `new URL('../d?x', 'http://h/a/b/c').href`, "http://h/a/d?x"},
		{"scheme-relative against a base", `new URL('//other/p', 'https://h/q').href`, "https://other/p"},
		{"query only against a base", `new URL('?q=1', 'http://h/a/b?old#f').href`, "http://h/a/b?q=1"},
		{"fragment only against a base", `new URL('#h', 'http://h/a?q').href`, "http://h/a?q#h"},
		{"absolute ignores the base", `new URL('https://x/y', 'http://h/').href`, "https://x/y"},
		{"base given as a URL", `new URL('c', new URL('http://h/a/b')).href`, "http://h/a/c"},
		{"opaque URL", `const u = new URL('mailto:a@b.c'); [u.protocol, u.pathname, u.origin, u.host].join(' ')`, "mailto: a@b.c null "},
		{"toString and toJSON", `const u = new URL('http://h/p'); String(u) + ' ' + JSON.stringify({ u })`, `http://h/p {"u":"http://h/p"}`},
		{"relative without base", `new URL('foo')`, `throws TypeError: URL: invalid URL "foo"`},
		{"port out of range", `new URL('http://h:99999/')`, `throws TypeError: URL: invalid URL "http://h:99999/"`},
		{"relative base", `new URL('x', 'nope')`, "throws TypeError: URL: invalid URL"},
		{"special scheme without host", `new URL('http:///p')`, "throws TypeError"},
		{"canParse", `[URL.canParse('http://h'), URL.canParse('nope'), URL.canParse('p', 'http://h/')].join()`, "true,false,true"},
		{"setters", `const u = new URL('http://h/p?a=1#x');
u.pathname = '/a b'; u.search = '?b=2'; u.hash = 'y'; u.port = '8080'; u.hostname = 'example.org'; u.username = 'me'; u.password = 'p@ss';
u.href`, "http://me:p%40ss@example.org:8080/a%20b?b=2#y"},
		{"bad setter values ignored", `const u = new URL('http://h/p'); u.port = 'x'; u.protocol = 'mailto'; u.href`, "http://h/p"},
		{"searchParams of the URL", `const u = new URL('http://h/?a=1&b=2&a=3'); u.searchParams.getAll('a').join()`, "1,3"},
		{"searchParams edits update the URL", `const u = new URL('http://h/?a=1'); u.searchParams.append('q', 'x y'); u.searchParams.delete('a'); u.href`, "http://h/?q=x+y"},
		{"emptied searchParams drop the ?", `const u = new URL('http://h/p?a=1#f'); u.searchParams.delete('a'); u.href`, "http://h/p#f"},
		{"search setter updates searchParams", `const u = new URL('http://h/?a=1'); const p = u.searchParams; u.search = 'z=9'; p.get('z') + ' ' + p.has('a')`, "9 false"},
	})
}

func TestURLSearchParams(t *testing.T) {
	runCases(t, []jsCase{
		{"from a string with ?", `new URLSearchParams('?a=1&b=x+y&c=%C3%A9&d&=e').toString()`, "a=1&b=x+y&c=%C3%A9&d=&=e"},
		{"decoding", `const p = new URLSearchParams('b=x+y&c=%C3%A9&bad=%zz&d'); [p.get('b'), p.get('c'), p.get('bad'), p.get('d'), p.get('none')].join('|')`, "x y|é|%zz||"},
		{"from an object", `new URLSearchParams({ a: 1, 'b c': 'd&e' }).toString()`, "a=1&b+c=d%26e"},
		{"from pairs", `new URLSearchParams([['a', '1'], ['a', '2']]).getAll('a').join()`, "1,2"},
		{"from a Map", `new URLSearchParams(new Map([['k', 'v']])).toString()`, "k=v"},
		{"from another", `const a = new URLSearchParams('x=1'); const b = new URLSearchParams(a); b.append('y', 2); a.toString() + ' ' + b.toString()`, "x=1 x=1&y=2"},
		{"bad pair", `new URLSearchParams([['a', '1', '2']])`, "throws TypeError: URLSearchParams: each pair must have exactly two items, got 3"},
		{"append requires two arguments", `new URLSearchParams().append('a')`, "throws TypeError: URLSearchParams.append: 2 arguments required, but only 1 present"},
		{"set replaces the first and drops the rest", `const p = new URLSearchParams('a=1&b=2&a=3'); p.set('a', '9'); p.toString()`, "a=9&b=2"},
		{"delete with a value", `const p = new URLSearchParams('a=1&a=2'); p.delete('a', '1'); p.toString()`, "a=2"},
		{"has with a value", `const p = new URLSearchParams('a=1'); [p.has('a'), p.has('a', '2'), p.has('b')].join()`, "true,false,false"},
		{"sort is stable by name", `const p = new URLSearchParams('c=1&a=2&b=3&a=1'); p.sort(); p.toString()`, "a=2&a=1&b=3&c=1"},
		{"forEach", `const out = []; new URLSearchParams('a=1&b=2').forEach((v, k, p) => out.push(k + v + (p instanceof URLSearchParams))); out.join()`, "a1true,b2true"},
		{"iteration", `const p = new URLSearchParams('a=1&b=2'); [[...p].join(';'), [...p.keys()].join(), [...p.values()].join(), [...p.entries()].length, p.size].join(' ')`, "a,1;b,2 a,b 1,2 2 2"},
		{"for..of destructuring", `let s = ''; for (const [k, v] of new URLSearchParams('x=1&y=2')) s += k + '=' + v + ';'; s`, "x=1;y=2;"},
		{"encoding of reserved and non-ASCII", `new URLSearchParams({ q: "a+b/c?d=é*-._~ " }).toString()`, "q=a%2Bb%2Fc%3Fd%3D%C3%A9*-._%7E+"},
		{"Object.prototype.toString", `Object.prototype.toString.call(new URLSearchParams())`, "[object URLSearchParams]"},
	})
}

func TestStructuredClone(t *testing.T) {
	runCases(t, []jsCase{
		{"deep copy", `const a = { n: 1, s: 'x', arr: [1, { b: 2 }], d: new Date(5), m: new Map([[1, { z: 1 }]]) };
const c = structuredClone(a); c.arr[1].b = 9;
[a.arr[1].b, c.arr[1].b, c.d.getTime(), c.d instanceof Date, c.m.get(1).z, c !== a].join()`, "2,9,5,true,1,true"},
		{"cycles", `const a = { }; a.self = a; const c = structuredClone(a); [c.self === c, c !== a].join()`, "true,true"},
		{"buffers are copied", `const b = new Uint8Array([1, 2, 3]); const c = structuredClone(b); c[0] = 9; [b[0], c[0], c instanceof Uint8Array].join()`, "1,9,true"},
		{"functions are not cloneable", `structuredClone({ f() {} })`, "throws DataCloneError: structuredClone: a function could not be cloned"},
	})
}
