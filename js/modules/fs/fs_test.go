package k6fs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
	k6fs "github.com/usefullatency/usefullatency/js/modules/fs"
	"github.com/usefullatency/usefullatency/metrics"
)

// prelude imports the module and defines expect(cond, what), which throws
// naming what when cond is false.
const prelude = `import { open, SeekMode } from 'k6/experimental/fs';
function expect(cond, what) { if (!cond) throw new Error('expected ' + what); }
`

// writeFile writes content to name in a new temporary directory and
// returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// quote returns s as a JavaScript string literal.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// run runs src (after the prelude) for one iteration and fails the test
// when it throws.
func run(t *testing.T, src string) jstest.Result {
	t.Helper()
	r := jstest.Run(context.Background(), t, prelude+src, 1)
	if r.Err != nil {
		t.Fatalf("script failed: %v\nlog:\n%s", r.Err, r.Log)
	}
	return r
}

func TestFileReadSeekStat(t *testing.T) {
	path := writeFile(t, "bonjour.txt", "Bonjour, tout le monde!\n")
	run(t, `
const file = await open(`+quote(path)+`);
export default async function () {
  expect(file.path === `+quote(path)+`, 'file.path to be the absolute path, got ' + file.path);
  const info = await file.stat();
  expect(info.name === 'bonjour.txt', 'stat().name bonjour.txt, got ' + info.name);
  expect(info.size === 24, 'stat().size 24, got ' + info.size);

  const buf = new Uint8Array(5);
  const parts = [];
  let total = 0;
  for (;;) {
    const n = await file.read(buf);
    if (n === null) break;
    total += n;
    parts.push(new TextDecoder().decode(buf.subarray(0, n)));
  }
  expect(total === 24, '24 bytes read, got ' + total);
  expect(parts.join('') === 'Bonjour, tout le monde!\n', 'the whole content, got ' + parts.join(''));
  expect(parts.length === 5 && parts[4].length === 4, 'four reads of 5 bytes and one of 4');
  expect(await file.read(buf) === null, 'null again at the end');

  expect(await file.seek(0, SeekMode.Start) === 0, 'seek to the start resolves to 0');
  expect(await file.seek(9, SeekMode.Current) === 9, 'seek +9 from the current position resolves to 9');
  expect(await file.seek(-2, SeekMode.Current) === 7, 'seek -2 from the current position resolves to 7');
  const two = new Uint8Array(2);
  expect(await file.read(two) === 2, 'a read of 2 bytes');
  expect(new TextDecoder().decode(two) === ', ', 'the bytes at 7, got ' + new TextDecoder().decode(two));
  expect(await file.seek(-7, SeekMode.End) === 17, 'seek -7 from the end resolves to 17');
  const rest = new Uint8Array(100);
  expect(await file.read(rest) === 7, 'the last 7 bytes');
  expect(new TextDecoder().decode(rest.subarray(0, 7)) === 'monde!\n', 'the end of the file');
  expect(await file.seek(100, SeekMode.Start) === 100, 'a seek past the end is allowed');
  expect(await file.read(rest) === null, 'and reads nothing');

  const view = new Uint8Array(new ArrayBuffer(8), 4, 3);
  await file.seek(0, SeekMode.Start);
  expect(await file.read(view) === 3, 'a read into a view of 3 bytes');
  expect(new Uint8Array(view.buffer)[4] === 66, 'the view starts at its offset in the buffer');
  expect(SeekMode.Start === 0 && SeekMode.Current === 1 && SeekMode.End === 2, "SeekMode's values 0, 1, 2");
}
`)
}

func TestOpenEmptyFileReadsNull(t *testing.T) {
	path := writeFile(t, "empty.txt", "")
	run(t, `
const file = await open(`+quote(path)+`);
export default async function () {
  expect((await file.stat()).size === 0, 'size 0');
  expect(await file.read(new Uint8Array(4)) === null, 'null from an empty file');
}
`)
}

// TestOpenRelativeToModule opens files by relative names, as k6's
// documentation does: from the main script's init code (inside an async
// function) the name is relative to the script, from an imported module's
// to that module.
func TestOpenRelativeToModule(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"data.txt":     "abc",
		"lib/data.txt": "lib",
		"lib/data.js":  "import { open } from 'k6/experimental/fs';\nexport const libFile = await open('data.txt');\nexport const again = await open('data.txt');\n",
		"script.js": prelude + `
import { libFile, again } from './lib/data.js';
let file;
(async function () { file = await open('data.txt'); })();
export default async function () {
  expect(file.path === ` + quote(filepath.Join(dir, "data.txt")) + `, 'the path next to the script, got ' + file.path);
  const b = new Uint8Array(3);
  expect(await file.read(b) === 3 && String.fromCharCode(...b) === 'abc', 'its content');
  expect(libFile.path === ` + quote(filepath.Join(dir, "lib", "data.txt")) + `, 'the path next to the module, got ' + libFile.path);
  expect(await libFile.read(b) === 3 && String.fromCharCode(...b) === 'lib', 'the module file content');
  expect(again.path === libFile.path, 'after an await too, got ' + again.path);
}
`,
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vu := jstest.NewVUFile(t, filepath.Join(dir, "script.js"))
	if err := vu.RunIteration(context.Background(), js.Iteration{Exec: "default", Tags: metrics.Tags{}}); err != nil {
		t.Fatal(err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.csv")
	sparse := filepath.Join(t.TempDir(), "sparse.bin")
	if f, err := os.Create(sparse); err != nil || f.Truncate(10<<30) != nil || f.Close() != nil {
		t.Fatalf("a 10 GiB sparse file: %v", err)
	}
	for _, tc := range []struct {
		name, src string
		// errName and inMessage are what the rejection must hold.
		errName, inMessage string
	}{
		{"missing file", `await open(` + quote(missing) + `)`, "NotFoundError", missing},
		{"directory", `await open(` + quote(dir) + `)`, "InvalidResourceError", dir + " is a directory"},
		{"device", `await open('/dev/zero')`, "InvalidResourceError", `open("/dev/zero"): /dev/zero is not a regular file (a device)`},
		{"10 GiB sparse file", `await open(` + quote(sparse) + `)`, "InvalidResourceError",
			sparse + " is 10 GiB, more than the 1 GiB a test may read from one file (raise it with --max-file-size)"},
		{"not a string", `await open(42)`, "TypeError", "path must be a non-empty string"},
		{"no path", `await open()`, "TypeError", "path must be a non-empty string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run(t, `
let caught;
try { `+tc.src+`; } catch (e) { caught = e; }
export default function () {
  expect(caught !== undefined, 'open to reject');
  expect(caught.name === `+quote(tc.errName)+`, 'name `+tc.errName+`, got ' + caught.name);
  expect(caught.message.includes(`+quote(tc.inMessage)+`), 'the message to hold `+strings.ReplaceAll(tc.inMessage, `\`, `\\`)+`, got ' + caught.message);
  expect(caught instanceof Error, 'an Error');
}
`)
		})
	}
}

func TestOpenOutsideInitContextRejects(t *testing.T) {
	path := writeFile(t, "a.txt", "a")
	run(t, `
export default async function () {
  let caught;
  try { await open(`+quote(path)+`); } catch (e) { caught = e; }
  expect(caught && caught.name === 'ForbiddenError', 'a ForbiddenError, got ' + caught);
  expect(caught.message.includes('init context'), 'the message to name the init context');
}
`)
}

func TestReadAndSeekArgumentErrors(t *testing.T) {
	path := writeFile(t, "a.txt", "abcdef")
	for _, tc := range []struct{ name, call, inMessage string }{
		{"read of a string", `file.read('abc')`, "Uint8Array"},
		{"read of an array", `file.read([0, 0])`, "Uint8Array"},
		{"read of an Int32Array", `file.read(new Int32Array(2))`, "Uint8Array"},
		{"negative offset from the start", `file.seek(-1, SeekMode.Start)`, "offset must be >= 0"},
		{"positive offset from the end", `file.seek(1, SeekMode.End)`, "offset must be <= 0"},
		{"before the start", `file.seek(-7, SeekMode.End)`, "before the start"},
		{"unknown whence", `file.seek(0, 3)`, "whence must be"},
		{"fractional offset", `file.seek(1.5, SeekMode.Start)`, "offset must be a whole number"},
		{"offset not a number", `file.seek('1', SeekMode.Start)`, "offset must be a whole number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run(t, `
const file = await open(`+quote(path)+`);
export default async function () {
  await file.seek(2, SeekMode.Start);
  let caught;
  try { await `+tc.call+`; } catch (e) { caught = e; }
  expect(caught instanceof TypeError, 'a TypeError, got ' + caught);
  expect(caught.message.includes(`+quote(tc.inMessage)+`), 'the message to hold `+tc.inMessage+`, got ' + caught.message);
  expect(await file.seek(0, SeekMode.Current) === 2, 'the position unchanged');
}
`)
		})
	}
}

// TestFileSharedBetweenVUs starts two VUs of one run on a script that opens
// a file: the file is read once, both Files hold the same bytes in memory
// (not a copy per VU), and each VU has its own position.
func TestFileSharedBetweenVUs(t *testing.T) {
	data := writeFile(t, "prompts.txt", strings.Repeat("0123456789", 1000))
	script := filepath.Join(t.TempDir(), "script.js")
	src := prelude + `
export const file = await open(` + quote(data) + `);
export default async function () {
  const b = new Uint8Array(4);
  expect(await file.read(b) === 4, 'a read of 4 bytes');
  expect(String.fromCharCode(...b) === ['0123', '4567'][__ITER % 2], 'the VU reads from its own position, got ' + String.fromCharCode(...b));
}
`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	reads := 0
	b, err := js.NewBundleConfig(script, js.Config{OnRead: func(name string, _ []byte) {
		mu.Lock()
		defer mu.Unlock()
		if name == data {
			reads++
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	run := jstest.NewRun(&bytes.Buffer{})
	var files []*k6fs.File
	var vus []*js.VU
	for id := int64(1); id <= 2; id++ {
		vu, err := b.NewVU(context.Background(), id, run)
		if err != nil {
			t.Fatal(err)
		}
		f := k6fs.Of(vu.Export("file"))
		if f == nil {
			t.Fatalf("VU %d: the export file is not a File", id)
		}
		files, vus = append(files, f), append(vus, vu)
	}
	if reads != 1 {
		t.Errorf("the file was read %d times for two VUs, want once", reads)
	}
	a, c := k6fs.Bytes(files[0]), k6fs.Bytes(files[1])
	if unsafe.SliceData(a) != unsafe.SliceData(c) || len(a) != 10000 {
		t.Errorf("the VUs' Files hold different copies (%p, %p) or the wrong length %d", unsafe.SliceData(a), unsafe.SliceData(c), len(a))
	}
	// VU 1 runs two iterations (0123, then 4567); VU 2 then reads 0123.
	for _, vu := range []*js.VU{vus[0], vus[0], vus[1]} {
		if err := vu.RunIteration(context.Background(), js.Iteration{Exec: "default", Tags: metrics.Tags{}}); err != nil {
			t.Fatalf("VU %d: %v", vu.ID(), err)
		}
	}
}

// TestFileConcurrentVUs initialises eight VUs of one run at once, as the
// runner does, and runs an iteration in each: every VU reads the whole
// file (run it with -race).
func TestFileConcurrentVUs(t *testing.T) {
	data := writeFile(t, "prompts.txt", strings.Repeat("abcdefgh", 512))
	script := filepath.Join(t.TempDir(), "script.js")
	src := prelude + `
const file = await open(` + quote(data) + `);
export default async function () {
  const b = new Uint8Array(1024);
  let total = 0;
  for (let n = await file.read(b); n !== null; n = await file.read(b)) total += n;
  expect(total === 4096, 'the whole file, got ' + total);
}
`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := js.NewBundle(script)
	if err != nil {
		t.Fatal(err)
	}
	run := jstest.NewRun(&bytes.Buffer{})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for id := int64(1); id <= 8; id++ {
		wg.Go(func() {
			vu, err := b.NewVU(context.Background(), id, run)
			if err == nil {
				err = vu.RunIteration(context.Background(), js.Iteration{Exec: "default", Tags: metrics.Tags{}})
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
