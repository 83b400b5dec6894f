package js_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
)

// tsMain has types, an interface, a type-only import and an exception on
// line 12 of the TypeScript source.
const tsMain = `import { check } from 'k6';
import type { Shape } from './shape.mts';
import { area } from './shape.mts';

interface Options { vus: number }
export const options: Options = { vus: 1 };

export default function (): string {
  const s: Shape = { w: 6, h: 7 };
  return String(area(s)) + ' ' + typeof check;
}
export function fails(): never { const why: string = 'on purpose'; throw new Error(why); }
`

const tsShape = `export type Shape = { w: number; h: number };
export function area(s: Shape): number { return s.w * s.h; }
`

// TestTypeScript runs a .ts script importing a .mts module.
func TestTypeScript(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.ts": tsMain, "shape.mts": tsShape})
	if got := callExport(t, dir, "main.ts", "default"); got != "42 function" {
		t.Errorf("default() = %q, want %q", got, "42 function")
	}
}

// TestTypeScriptErrorLine reports an exception at its line in the .ts file,
// not in the JavaScript esbuild made of it.
func TestTypeScriptErrorLine(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.ts": tsMain, "shape.mts": tsShape})
	vu := jstest.NewVUFile(t, filepath.Join(dir, "main.ts"))
	_, err := vu.Call(context.Background(), "fails")
	if err == nil || !strings.Contains(err.Error(), "main.ts:12:") {
		t.Errorf("error %v, want it at main.ts:12", err)
	}
}

// TestTypeScriptSyntaxError names the .ts file, line and column of a
// TypeScript syntax error.
func TestTypeScriptSyntaxError(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.ts": "export default function () {\n  const x: = 1;\n}\n"})
	_, err := js.NewBundle(filepath.Join(dir, "main.ts"))
	if err == nil || !strings.Contains(err.Error(), "main.ts:2:") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q, want one line naming main.ts:2", err)
	}
}

// TestTypeScriptCommonJS strips types from a CommonJS .cts file.
func TestTypeScriptCommonJS(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.ts": `const lib = require('./lib.cts');
export default function (): number { return lib.answer; }`,
		"lib.cts": `const answer: number = 42; module.exports = { answer };`,
	})
	if got := callExport(t, dir, "main.ts", "default"); got != "42" {
		t.Errorf("default() = %q, want 42", got)
	}
}

// TestSourceMapMissing loads a file whose sourceMappingURL names a file
// that does not exist, with one warning naming it.
func TestSourceMapMissing(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.js": "import { x } from './lib.js';\nexport default function () { return x; }\n//# sourceMappingURL=missing.map\n",
		"lib.js":  "export const x = 'ran';\n//# sourceMappingURL=missing.map\n",
	})
	b, err := js.NewBundle(filepath.Join(dir, "main.js"))
	if err != nil {
		t.Fatal(err)
	}
	w := b.Warnings()
	if len(w) != 1 || !strings.Contains(w[0], "missing.map") {
		t.Errorf("warnings %q, want one naming missing.map", w)
	}
	if got := callExport(t, dir, "main.js", "default"); got != "ran" {
		t.Errorf("default() = %q", got)
	}
}

// TestSourceMapUsed reports an exception of a generated file at the line
// of the source its external map names.
func TestSourceMapUsed(t *testing.T) {
	src := "// generated from this\n\n\nexport default function (): void {\n  throw new Error('mapped');\n}\n"
	res := api.Transform(src, api.TransformOptions{
		Loader: api.LoaderTS, Sourcemap: api.SourceMapExternal, Sourcefile: "orig.ts",
	})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	code := strings.TrimSpace(string(res.Code)) + "\n//# sourceMappingURL=main.js.map\n"
	dir := writeFiles(t, map[string]string{"main.js": code, "main.js.map": string(res.Map)})
	b, err := js.NewBundle(filepath.Join(dir, "main.js"))
	if err != nil {
		t.Fatal(err)
	}
	if w := b.Warnings(); len(w) != 0 {
		t.Errorf("warnings %q, want none", w)
	}
	run, _ := newRun()
	vu, err := b.NewVU(context.Background(), 1, run)
	if err != nil {
		t.Fatal(err)
	}
	_, err = vu.Call(context.Background(), "default")
	if err == nil || !strings.Contains(err.Error(), "orig.ts:5:") {
		t.Errorf("error %v, want it at orig.ts:5 (the mapped line)", err)
	}
}
