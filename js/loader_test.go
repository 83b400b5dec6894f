package js_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/usefullatency/usefullatency/js/jstest"
)

// writeFiles writes files (path relative to a temporary directory → source)
// and returns the directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// callExport loads main in dir, evaluates its init code in a VU and calls
// the exported function name; it returns the result as a string.
func callExport(t *testing.T, dir, main, name string) string {
	t.Helper()
	vu := jstest.NewVUFile(t, filepath.Join(dir, main))
	if !vu.HasFunction(name) {
		t.Fatalf("HasFunction(%q) = false", name)
	}
	res, err := vu.Call(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return res.String()
}

// TestExportForms calls the default function and a named scenario
// function of every form an ES module (or a bundler) exports them in.
func TestExportForms(t *testing.T) {
	for _, tc := range []struct{ name, src, fn string }{
		{"named default function", `export default function run() { return "ran"; }`, "default"},
		{"anonymous async default", `export default async function () { return "ran"; }`, "default"},
		{"local as default", `function main() { return "ran"; } export { main as default };`, "default"},
		{"default identifier", `const someIdentifier = () => "ran"; export default someIdentifier;`, "default"},
		{"default arrow", `export default () => "ran";`, "default"},
		{"default class method", `class A { static run() { return "ran"; } } export default A.run;`, "default"},
		{"re-exported default", `export { default } from "./lib.js";`, "default"},
		{"re-exported as default", `export { fromLib as default } from "./lib.js";`, "default"},
		{"exec renamed", `const a = () => "ran"; export { a as b };`, "b"},
		{"exec function renamed", `function a() { return "ran"; } export { a as b };`, "b"},
		{"exec const arrow", `export const f = () => "ran";`, "f"},
		{"exec function", `export function f() { return "ran"; }`, "f"},
		{"exec re-exported", `export { fromLib as f } from "./lib.js";`, "f"},
		{"exec from namespace", `import * as lib from "./lib.js"; export const f = lib.fromLib;`, "f"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{
				"main.js": tc.src,
				"lib.js":  `export function fromLib() { return "ran"; } export default fromLib;`,
			})
			if got := callExport(t, dir, "main.js", tc.fn); got != "ran" {
				t.Errorf("%s() = %q, want ran", tc.fn, got)
			}
		})
	}
}

// An export is resolved once per bundle, but its binding stays live: a
// function the module reassigns is the new one at the next call, and
// looking a function up again allocates nothing (every iteration does).
func TestExportResolvedOnceBindingLive(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.js": `
		export let run = () => "first";
		export function swap() { run = () => "second"; }
	`})
	vu := jstest.NewVUFile(t, filepath.Join(dir, "main.js"))
	call := func(name string) string {
		t.Helper()
		res, err := vu.Call(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		return res.String()
	}
	if got := call("run"); got != "first" {
		t.Fatalf("run() = %q, want first", got)
	}
	call("swap")
	if got := call("run"); got != "second" {
		t.Fatalf("run() after swap = %q, want second: the export's binding is not live", got)
	}
	if n := testing.AllocsPerRun(100, func() { vu.Export("run") }); n != 0 {
		t.Errorf("looking run up again allocates %.0f times, want 0", n)
	}
}

// TestExportMissing keeps a name nobody exports reported as missing.
func TestExportMissing(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.js": `function main() {} export { main as run };`})
	vu := jstest.NewVUFile(t, filepath.Join(dir, "main.js"))
	if vu.HasFunction("default") || vu.HasFunction("main") || !vu.HasFunction("run") {
		t.Errorf("HasFunction default/main/run = %v/%v/%v, want false/false/true",
			vu.HasFunction("default"), vu.HasFunction("main"), vu.HasFunction("run"))
	}
}
