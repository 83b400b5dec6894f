package js_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/js/jstest"
)

// allLazy are the globals a VU builds on first use, in lazyGlobals' order.
var allLazy = []string{"__ENV", "__VU", "__ITER", "console", "TextEncoder", "TextDecoder", "URL", "URLSearchParams", "structuredClone",
	"open", "require", "crypto", "setTimeout", "clearTimeout", "setInterval", "clearInterval"}

// TestLazyGlobalsBuiltOnUse checks which globals an operation builds: only
// the one it reads, describes or redefines (the web globals together); none
// for `in` or an assignment, or for a read of __ENV, __VU, __ITER or
// console, which are read in place; all for a listing of the global
// object's keys.
func TestLazyGlobalsBuiltOnUse(t *testing.T) {
	web := []string{"TextEncoder", "TextDecoder", "URL", "URLSearchParams", "structuredClone"}
	without := func(names ...string) []string {
		return slices.DeleteFunc(slices.Clone(allLazy), func(n string) bool { return slices.Contains(names, n) })
	}
	for _, tc := range []struct{ name, code string }{
		{"nothing", `1`},
		{"typeof", `typeof URL`},
		{"call", `new TextEncoder().encode('x')`},
		{"in and delete-free tests", `'crypto' in globalThis && 'setTimeout' in globalThis`},
		{"hasOwnProperty", `globalThis.hasOwnProperty('open')`},
		{"assignment", `setInterval = 1; globalThis.structuredClone = 2`},
		{"web and assignment", `structuredClone = 2; new URL('http://h').href`},
		{"delete", `delete globalThis.clearTimeout`},
		{"read in place", `__ENV.X === undefined && __VU === 1 && __ITER === 0 && console === console && __ENV === __ENV`},
		{"in place described", `globalThis.hasOwnProperty('__ENV') && Object.getOwnPropertyDescriptor(globalThis, '__ITER').value === 0`},
		{"keys", `Object.keys(globalThis)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vu := jstest.NewVU(t, `export default function () {}`)
			if _, err := vu.Runtime().RunString(tc.code); err != nil {
				t.Fatal(err)
			}
			want := map[string][]string{
				"nothing":                  allLazy,
				"typeof":                   without(web...),
				"call":                     without(web...),
				"in and delete-free tests": allLazy,
				"hasOwnProperty":           without("open"),
				"assignment":               without("setInterval", "structuredClone"),
				"web and assignment":       without(web...),
				"delete":                   without("clearTimeout"),
				"read in place":            allLazy,
				"in place described":       without("__ENV", "__ITER"),
				"keys":                     nil,
			}[tc.name]
			if got := vu.PendingGlobals(); !slices.Equal(got, want) {
				t.Errorf("pending after %s:\n got %v\nwant %v", tc.code, got, want)
			}
		})
	}
}

// TestLazyGlobalsSemantics runs each expression in a fresh VU, before the
// globals it is about were built, and wants what the same expression gives
// when every global is built at once (as the build before lazy globals
// answered them).
func TestLazyGlobalsSemantics(t *testing.T) {
	const desc = `const desc = (n) => JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, n), (k, v) => typeof v === 'function' ? 'fn' : v);`
	keys := "TextDecoder,TextEncoder,URL,URLSearchParams,__ENV,__ITER,__VU,clearInterval,clearTimeout,console,crypto,open,require,setInterval,setTimeout,structuredClone"
	for _, tc := range []struct{ name, expr, want string }{
		{"typeof", `[typeof URL, typeof TextEncoder, typeof crypto, typeof setInterval, typeof open, typeof require, typeof nope].join()`,
			"function,function,object,function,function,function,undefined"},
		{"in", `['URL', 'structuredClone', 'crypto', 'clearInterval', 'nope'].map((n) => n in globalThis).join()`, "true,true,true,true,false"},
		{"own property", `Object.prototype.hasOwnProperty.call(globalThis, 'URL') && globalThis.hasOwnProperty('setTimeout')`, "true"},
		{"web global attributes", desc + `desc('URL')`, `{"value":"fn","writable":true,"enumerable":true,"configurable":false}`},
		{"timer attributes", desc + `desc('clearTimeout')`, `{"value":"fn","writable":true,"enumerable":true,"configurable":true}`},
		{"keys", `Object.keys(globalThis).sort().join()`, keys},
		{"for in", `const a = []; for (const k in globalThis) a.push(k); a.sort().join()`, keys},
		{"own names include the globals", `Object.getOwnPropertyNames(globalThis).filter((n) => n === 'URL' || n === 'open').sort().join()`, "URL,open"},
		{"prototype", `Object.getPrototypeOf(globalThis) === Object.prototype && globalThis.__proto__ === Object.prototype`, "true"},
		{"assignment keeps the attributes", desc + `URLSearchParams = 2; setTimeout = 1; [URLSearchParams, setTimeout, desc('URLSearchParams'), Object.keys(globalThis).length].join()`,
			`2,1,{"value":2,"writable":true,"enumerable":true,"configurable":false},16`},
		{"assignment through a child", `const c = Object.create(globalThis); c.URL = 1; [c.URL, typeof URL].join()`, "1,function"},
		{"redefinition", desc + `Object.defineProperty(globalThis, 'structuredClone', { value: 7 }); structuredClone + desc('structuredClone')`,
			`7{"value":7,"writable":true,"enumerable":true,"configurable":false}`},
		{"accessor", `let self; Object.defineProperty(globalThis, 'open', { set(v) { self = this; }, configurable: true }); open = 1; self === globalThis`, "true"},
		{"delete a configurable global", `[delete globalThis.setTimeout, typeof setTimeout, 'setTimeout' in globalThis].join()`, "true,undefined,false"},
		{"delete a web global", `[delete globalThis.URL, typeof URL].join()`, "false,function"},
		{"delete a web global in strict code", `'use strict'; delete globalThis.URL`, "throws TypeError"},
		{"var and function declarations", `(0, eval)('var URL; function setTimeout() { return 1 }'); [typeof URL, setTimeout()].join()`, "function,1"},
		{"another prototype", `Object.setPrototypeOf(globalThis, { inherited: 42 }); [inherited, typeof clearInterval].join()`, "42,function"},
		{"a prototype cycle", `Object.setPrototypeOf(globalThis, Object.create(globalThis))`, "throws TypeError"},
		{"frozen", `Object.freeze(globalThis); [typeof TextDecoder, Object.isFrozen(globalThis)].join()`, "function,true"},
		{"frozen prototype", `Object.preventExtensions(globalThis); Object.setPrototypeOf(globalThis, Object.prototype); Object.setPrototypeOf(globalThis, {})`, "throws TypeError"},
		{"one set of web classes", `const p = new URL('http://h/?a=1').searchParams; TextDecoder; p instanceof URLSearchParams`, "true"},
		{"sloppy this", `Function('return this')() === globalThis`, "true"},
		{"class", `Object.prototype.toString.call(globalThis)`, "[object global]"},
		{"in place", `[__VU, __ITER, typeof __ENV, typeof console.log, __ENV === globalThis.__ENV, console === globalThis.console].join()`,
			"1,0,object,function,true,true"},
		{"in place assigned", desc + `__ENV.A = 'b'; const e = __ENV; __ITER = 5; __ENV = 3; [__ITER, __ENV, e.A, desc('__ITER')].join()`,
			`5,3,b,{"value":5,"writable":true,"enumerable":true,"configurable":true}`},
		{"in place deleted", `[delete globalThis.__VU, typeof __VU, '__VU' in globalThis, 'console' in globalThis].join()`, "true,undefined,false,true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vu := jstest.NewVU(t, `export default function () {}`)
			v, err := vu.Runtime().RunString(tc.expr)
			if msg, ok := strings.CutPrefix(tc.want, "throws "); ok {
				if err == nil || !strings.Contains(err.Error(), msg) {
					t.Fatalf("err = %v, want %s", err, msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := v.String(); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestLazyGlobalsInInitAndIterations uses the globals in init code and in
// iterations: the same objects, __ITER counting the iterations whether it
// is read in place or defined.
func TestLazyGlobalsInInitAndIterations(t *testing.T) {
	res := jstest.Run(context.Background(), t, `
const InitURL = URL;
const uuid = crypto.randomUUID();
export default function () {
  if (__ITER === 1) __ITER = 100;
  if (__ITER === 2) Object.keys(globalThis);
  if (InitURL !== URL) throw new Error('URL changed');
  if (new URL('/a?b=' + __ITER, 'http://h').searchParams.get('b') !== String(__ITER)) throw new Error('URL');
  if (crypto.randomUUID() === uuid) throw new Error('the same uuid');
  let fired = false;
  setTimeout(() => { fired = true; console.log('timer ' + __ITER); }, 1);
}`, 3)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	// Iteration 1 assigns __ITER, which defines it; iteration 2 lists the
	// global's keys: __ITER is set again before each iteration.
	for _, want := range []string{"timer 0  ", "timer 100  ", "timer 2  "} {
		if !strings.Contains(res.Log, want) {
			t.Errorf("log lacks %q:\n%s", want, res.Log)
		}
	}
}
