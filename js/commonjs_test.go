package js_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
)

// cjsLib is a CommonJS file that requires another one and a built-in module.
const cjsLib = `
var k6 = require('k6');
var inner = require('./sub/inner.js');
exports.double = function (x) { return inner.twice(x); };
exports.hasCheck = typeof k6.check === 'function';
exports.file = __filename.split('/').pop();
`

// TestCommonJS loads CommonJS files from CommonJS and ES modules, with
// require of relative files and built-in modules, module.exports and
// exports.x, and a default import of a CommonJS module.
func TestCommonJS(t *testing.T) {
	for _, tc := range []struct{ name, main, fn string }{
		{"cjs main, exports.default", `
var lib = require('./lib.js');
exports.options = { vus: 1 };
exports.default = function () { return lib.double(21) + ' ' + lib.hasCheck + ' ' + lib.file; };`, "default"},
		{"cjs main, module.exports.default", `
const { double } = require('./lib.js');
module.exports = { default: function () { return double(21) + ' true lib.js'; } };`, "default"},
		{"cjs main, module.exports is the function", `
const lib = require('./lib.js');
module.exports = function () { return lib.double(21) + ' ' + lib.hasCheck + ' ' + lib.file; };`, "default"},
		{"cjs main, named exec", `
const lib = require('./lib.js');
exports.scenario = () => lib.double(21) + ' ' + lib.hasCheck + ' ' + lib.file;`, "scenario"},
		{"esm default import of cjs", `
import lib from './lib.js';
export default function () { return lib.double(21) + ' ' + lib.hasCheck + ' ' + lib.file; }`, "default"},
		{"esm default import of an esbuild cjs bundle", `
import bundle, { double } from './esbuilt.js';
export default function () { return (double === bundle.double ? bundle.run() : 'named import differs') + ' lib.js'; }`, "default"},
		{"esm named import of cjs", `
import { double, hasCheck, file } from './lib.js';
export default function () { return double(21) + ' ' + hasCheck + ' ' + file; }`, "default"},
		{"esm with require", `
const lib = require('./lib.js');
export default function () { return lib.double(21) + ' ' + lib.hasCheck + ' ' + lib.file; }`, "default"},
		{"umd bundle", `
(function (root, factory) {
  if (typeof module === 'object' && module.exports) {
    module.exports = factory(require('./lib.js'));
  } else {
    root.bundle = factory(root.lib);
  }
}(this, function (lib) {
  return { default: function () { return lib.double(21) + ' ' + lib.hasCheck + ' ' + lib.file; } };
}));`, "default"},
		{"webpack-shaped bundle", `
(() => {
  var __modules__ = { 1: (module) => { module.exports = require('./lib.js'); } };
  var __cache__ = {};
  function __req__(id) {
    if (__cache__[id]) return __cache__[id].exports;
    var m = __cache__[id] = { exports: {} };
    __modules__[id](m, m.exports, __req__);
    return m.exports;
  }
  var __exports__ = {};
  __req__.d = (e, d) => { for (var k in d) Object.defineProperty(e, k, { enumerable: true, get: d[k] }); };
  __req__.d(__exports__, { default: () => run, options: () => options });
  var lib = __req__(1);
  const options = { vus: 1 };
  function run() { return lib.double(21) + ' ' + lib.hasCheck + ' ' + lib.file; }
  var __target__ = exports;
  for (var k in __exports__) __target__[k] = __exports__[k];
  Object.defineProperty(__target__, '__esModule', { value: true });
})();`, "default"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{
				"main.js":          tc.main,
				"lib.js":           cjsLib,
				"sub/inner.js":     `module.exports = { twice: require('../twice.js').twice };`,
				"twice.js":         `export function twice(x) { return 2 * x; }`,
				"unused/broken.js": `this is not javascript`,
				// esbuild's CommonJS output of an ES module with a default
				// export: exports.default plus the __esModule mark.
				"esbuilt.js": `var lib = require('./lib.js');
var chai = { run: function () { return lib.double(21) + ' ' + lib.hasCheck; }, double: lib.double };
Object.defineProperty(exports, '__esModule', { value: true });
exports.default = chai;
exports.double = lib.double;`,
			})
			if got := callExport(t, dir, "main.js", tc.fn); got != "42 true lib.js" {
				t.Errorf("%s() = %q, want %q", tc.fn, got, "42 true lib.js")
			}
		})
	}
}

// TestCommonJSOptions reads a CommonJS main script's exports.options.
func TestCommonJSOptions(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.js": `
exports.options = { vus: 3 };
exports.default = function () {};`})
	b, err := js.NewBundle(filepath.Join(dir, "main.js"))
	if err != nil {
		t.Fatal(err)
	}
	run, _ := newRun()
	vu, err := b.NewVU(context.Background(), 0, run)
	if err != nil {
		t.Fatal(err)
	}
	if got := vu.ExportedOptions()["vus"]; got != int64(3) {
		t.Errorf("options.vus = %v, want 3", got)
	}
}

// TestCommonJSRunsOncePerVU checks a file both imported and required runs
// its top-level code once in a VU, and again in the next VU.
func TestCommonJSRunsOncePerVU(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.js": `
import counted from './counted.js';
const again = require('./counted.js');
export default function () { return String(counted === again) + ' ' + globalThis.runs; }`,
		"counted.js": `globalThis.runs = (globalThis.runs || 0) + 1; module.exports = {};`,
	})
	b, err := js.NewBundle(filepath.Join(dir, "main.js"))
	if err != nil {
		t.Fatal(err)
	}
	run, _ := newRun()
	for id := int64(1); id <= 2; id++ {
		vu, err := b.NewVU(context.Background(), id, run)
		if err != nil {
			t.Fatal(err)
		}
		res, err := vu.Call(context.Background(), "default")
		if err != nil {
			t.Fatal(err)
		}
		if res.String() != "true 1" {
			t.Errorf("VU %d: %q, want %q (same exports, one run)", id, res, "true 1")
		}
	}
}

// TestRequireErrors names the specifier of a require that cannot load and
// refuses require outside init code, as open() is refused.
func TestRequireErrors(t *testing.T) {
	for _, tc := range []struct{ name, main, want string }{
		{"missing file", `require('./nope.js'); exports.default = () => {};`, `require("./nope.js")`},
		{"unknown k6 module", `require('k6/nope'); exports.default = () => {};`, `module "k6/nope" is not supported`},
		{"syntax error", `require('./bad.js'); exports.default = () => {};`, `bad.js`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.js": tc.main, "bad.js": "exports.x = ;"})
			b, err := js.NewBundle(filepath.Join(dir, "main.js"))
			if err != nil {
				t.Fatal(err)
			}
			run, _ := newRun()
			_, err = b.NewVU(context.Background(), 1, run)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	t.Run("outside init", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"main.js": `exports.default = () => require('k6');`})
		vu := jstest.NewVUFile(t, filepath.Join(dir, "main.js"))
		if _, err := vu.Call(context.Background(), "default"); err == nil || !strings.Contains(err.Error(), "init context") {
			t.Errorf("error %v, want the init-context error", err)
		}
	})
}

// TestCommonJSRelativePaths resolves open() and require() in a CommonJS
// file in a subdirectory against that file, also from a function of the
// file that the main script calls later in its init code.
func TestCommonJSRelativePaths(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.js": `
const reader = require('./sub/reader.js');
const later = reader.read();
exports.default = function () { return reader.text + ' ' + later + ' ' + reader.sibling; };`,
		"sub/reader.js": `
exports.text = open('./data.txt').trim();
exports.sibling = require('./sibling.js').name;
exports.read = function () { return open('./data.txt').trim(); };`,
		"sub/sibling.js": `module.exports = { name: 'sibling' };`,
		"sub/data.txt":   "next to reader\n",
	})
	if got, want := callExport(t, dir, "main.js", "default"), "next to reader next to reader sibling"; got != want {
		t.Errorf("default() = %q, want %q", got, want)
	}
}
