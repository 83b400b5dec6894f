package webcrypto_test

import (
	"context"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/js/jstest"
)

// helpers are the functions every test script has: hex and unhex convert
// between bytes and hex text, utf8 encodes a string, rejection returns
// "Name: message" of the error a promise rejects with.
const helpers = `
const hex = (b) => Array.from(new Uint8Array(b.buffer ? b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) : b))
	.map((x) => x.toString(16).padStart(2, '0')).join('');
const unhex = (s) => new Uint8Array(s.match(/../g) ? s.match(/../g).map((x) => parseInt(x, 16)) : []);
const utf8 = (s) => new TextEncoder().encode(s);
const subtle = crypto.subtle;
async function rejection(promise) {
	try { await promise; return 'resolved'; } catch (e) { return e.name + ': ' + e.message; }
}
`

// runScript starts a real VU whose default export is an async function
// with body, calls it and returns what it returned, as a string. The
// promise is settled on the VU's event loop, as in a test run.
func runScript(t *testing.T, body string) string {
	t.Helper()
	vu := jstest.NewVU(t, helpers+"export default async function () {\n"+body+"\n}\n")
	v, err := vu.Call(context.Background(), "default")
	if err != nil {
		t.Fatalf("script failed: %v\n%s", err, body)
	}
	return v.String()
}

// lines runs body, which returns an array of strings, and returns them.
func lines(t *testing.T, body string) []string {
	t.Helper()
	return strings.Split(runScript(t, "return ("+body+").join('\\n');"), "\n")
}

// vector is a known answer: the JavaScript expression that computes it and
// the hex it must give.
type vector struct {
	name, expr, want string
}

// checkVectors evaluates every expression (an ArrayBuffer promise) in one
// VU and compares its hex with the answer.
func checkVectors(t *testing.T, vectors []vector) {
	t.Helper()
	exprs := make([]string, len(vectors))
	for i, v := range vectors {
		exprs[i] = "hex(await " + v.expr + ")"
	}
	got := lines(t, "["+strings.Join(exprs, ",\n")+"]")
	for i, v := range vectors {
		if got[i] != v.want {
			t.Errorf("%s: got %s, want %s", v.name, got[i], v.want)
		}
	}
}

// jsHex returns b as a JavaScript expression of a Uint8Array.
func jsHex(b []byte) string { return "unhex('" + hex.EncodeToString(b) + "')" }

// TestSubtleIsAsync checks that crypto.subtle's methods return promises
// that settle after the synchronous code that called them: on the event
// loop, not before the call returns.
func TestSubtleIsAsync(t *testing.T) {
	got := runScript(t, `
		const order = [];
		const p = subtle.digest('SHA-256', new Uint8Array(1)).then(() => order.push('digest'));
		order.push('sync');
		const isPromise = p instanceof Promise;
		await p;
		return isPromise + ' ' + order.join();`)
	if got != "true sync,digest" {
		t.Errorf("got %q, want a promise settled after the synchronous code", got)
	}
}
