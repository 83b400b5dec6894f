package k6csv_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/metrics"
)

// prelude imports both modules and defines expect(cond, what), which
// throws naming what when cond is false, and same(a, b), which compares
// as JSON.
const prelude = `import { open } from 'k6/experimental/fs';
import csv from 'k6/experimental/csv';
function expect(cond, what) { if (!cond) throw new Error('expected ' + what); }
function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
`

// people is a CSV file with a header, a quoted field holding the
// delimiter, and one holding a line break.
const people = "name,age,city\n" +
	"ada,36,London\n" +
	"\"grace, rear admiral\",85,\"New\nYork\"\n" +
	"linus,55,Portland\n" +
	"ken,81,\n"

// writeFile writes content to name in a new temporary directory and
// returns its path.
func writeFile(t testing.TB, name, content string) string {
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
func run(t *testing.T, src string) {
	t.Helper()
	r := jstest.Run(context.Background(), t, prelude+src, 1)
	if r.Err != nil {
		t.Fatalf("script failed: %v\nlog:\n%s", r.Err, r.Log)
	}
}

func TestParseOptions(t *testing.T) {
	path := writeFile(t, "people.csv", people)
	for _, tc := range []struct{ name, options, want string }{
		{"defaults: every line as an array", `undefined`,
			`[["name","age","city"],["ada","36","London"],["grace, rear admiral","85","New\nYork"],["linus","55","Portland"],["ken","81",""]]`},
		{"skipFirstLine", `{ skipFirstLine: true }`,
			`[["ada","36","London"],["grace, rear admiral","85","New\nYork"],["linus","55","Portland"],["ken","81",""]]`},
		{"asObjects", `{ asObjects: true }`,
			`[{"name":"ada","age":"36","city":"London"},{"name":"grace, rear admiral","age":"85","city":"New\nYork"},{"name":"linus","age":"55","city":"Portland"},{"name":"ken","age":"81","city":""}]`},
		{"fromLine and toLine, inclusive, counted from the header", `{ fromLine: 2, toLine: 3 }`,
			`[["grace, rear admiral","85","New\nYork"],["linus","55","Portland"]]`},
		{"asObjects with fromLine keeps the header", `{ asObjects: true, fromLine: 3 }`,
			`[{"name":"linus","age":"55","city":"Portland"},{"name":"ken","age":"81","city":""}]`},
		{"skipFirstLine with toLine", `{ skipFirstLine: true, toLine: 1 }`, `[["ada","36","London"]]`},
		{"toLine past the end", `{ fromLine: 4, toLine: 100 }`, `[["ken","81",""]]`},
		{"fromLine past the end", `{ fromLine: 100 }`, `[]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run(t, `
const rows = await csv.parse(await open(`+quote(path)+`), `+tc.options+`);
export default function () {
  const got = [];
  for (const r of rows) got.push(r);
  expect(same(got, `+tc.want+`), 'rows `+strings.ReplaceAll(tc.want, "'", "")+`, got ' + JSON.stringify(got));
  expect(rows.length === `+tc.want+`.length, 'the length ' + `+tc.want+`.length + ', got ' + rows.length);
  expect(rows[rows.length] === undefined, 'undefined past the end');
}
`)
		})
	}
}

func TestParseDelimiterAndReadOnly(t *testing.T) {
	path := writeFile(t, "semi.csv", "a;b\n1;2\n")
	run(t, `
const rows = await csv.parse(await open(`+quote(path)+`), { delimiter: ';', asObjects: true });
export default function () {
  expect(rows.length === 1 && rows[0].a === '1' && rows[0].b === '2', 'the ; delimiter, got ' + JSON.stringify(rows[0]));
  rows[0].a = 'changed';
  expect(rows[0].a === '1', 'a change to an element is not kept');
  let threw = false;
  try { rows[0] = 1; } catch (e) { threw = e instanceof TypeError; }
  expect(threw, 'assigning an element to throw a TypeError');
  threw = false;
  try { rows.push(1); } catch (e) { threw = e instanceof TypeError; }
  expect(threw && rows.length === 1, 'push to throw a TypeError');
  threw = false;
  try { rows.length = 0; } catch (e) { threw = e instanceof TypeError; }
  expect(threw && rows.length === 1, 'setting length to throw a TypeError');
  expect(Array.isArray(rows), 'an array');
  expect(same(rows.map((r) => r.b), ['2']), 'array methods work');
}
`)
}

// TestRowsOfDifferentLengths reads rows shorter and longer than the
// header: as arrays they keep their own fields; as objects a missing field
// is an empty string and an extra one is dropped.
func TestRowsOfDifferentLengths(t *testing.T) {
	path := writeFile(t, "ragged.csv", "a,b,c\n1\n1,2,3,4\n")
	run(t, `
const file = await open(`+quote(path)+`);
const arrays = await csv.parse(file, { skipFirstLine: true });
const objects = await csv.parse(file, { asObjects: true });
export default function () {
  expect(same([...arrays], [['1'], ['1', '2', '3', '4']]), 'rows of their own lengths, got ' + JSON.stringify([...arrays]));
  expect(same([...objects], [{ a: '1', b: '', c: '' }, { a: '1', b: '2', c: '3' }]), 'objects of the header, got ' + JSON.stringify([...objects]));
}
`)
}

func TestParserStreamsRows(t *testing.T) {
	path := writeFile(t, "people.csv", people)
	run(t, `
const file = await open(`+quote(path)+`);
const arrays = new csv.Parser(file, { skipFirstLine: true });
const objects = new csv.Parser(file, { asObjects: true, toLine: 2 });
export default async function () {
  expect(arrays instanceof csv.Parser, 'a csv.Parser');
  let r = await arrays.next();
  expect(r.done === false && same(r.value, ['ada', '36', 'London']), 'the first row, got ' + JSON.stringify(r));
  r = await arrays.next();
  expect(same(r.value, ['grace, rear admiral', '85', 'New\nYork']), 'a quoted row, got ' + JSON.stringify(r));
  await arrays.next();
  r = await arrays.next();
  expect(same(r.value, ['ken', '81', '']), 'the last row, got ' + JSON.stringify(r));
  r = await arrays.next();
  expect(r.done === true && r.value === undefined && 'value' in r, 'done with value undefined, got ' + JSON.stringify(r));
  r = await arrays.next();
  expect(r.done === true, 'done again');

  const names = [];
  for (let o = await objects.next(); !o.done; o = await objects.next()) names.push(o.value.name);
  expect(same(names, ['ada', 'grace, rear admiral']), 'objects up to line 2, got ' + JSON.stringify(names));
}
`)
}

func TestParseErrors(t *testing.T) {
	path := writeFile(t, "people.csv", people)
	bad := writeFile(t, "bad.csv", "a,b\n1,\"unterminated\n")
	for _, tc := range []struct{ name, call, errType, inMessage string }{
		{"not a File", `csv.parse('people.csv')`, "TypeError", "file must be a File"},
		{"options not an object", `csv.parse(file, 'x')`, "TypeError", "options must be an object"},
		{"long delimiter", `csv.parse(file, { delimiter: ';;' })`, "TypeError", "options.delimiter must be one character"},
		{"quote delimiter", `csv.parse(file, { delimiter: '"' })`, "TypeError", "options.delimiter must be one character"},
		{"empty delimiter", `csv.parse(file, { delimiter: '' })`, "TypeError", "options.delimiter must be one character"},
		{"negative fromLine", `csv.parse(file, { fromLine: -1 })`, "TypeError", "options.fromLine must be a whole number >= 0"},
		{"fractional toLine", `csv.parse(file, { toLine: 1.5 })`, "TypeError", "options.toLine must be a whole number >= 0"},
		{"toLine before fromLine", `csv.parse(file, { fromLine: 3, toLine: 2 })`, "TypeError", "must not be less than options.fromLine"},
		{"skipFirstLine not a boolean", `csv.parse(file, { skipFirstLine: 'yes' })`, "TypeError", "options.skipFirstLine must be a boolean"},
		{"malformed file", `csv.parse(badFile)`, "Error", "extraneous or missing \" in quoted-field"},
		{"Parser of no File", `new csv.Parser({})`, "TypeError", "file must be a File"},
		{"Parser with bad options", `new csv.Parser(file, { asObjects: 1 })`, "TypeError", "options.asObjects must be a boolean"},
		{"Parser on a malformed file", `(async () => { const p = new csv.Parser(badFile); await p.next(); return p.next(); })()`, "Error", "extraneous or missing \" in quoted-field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run(t, `
const file = await open(`+quote(path)+`);
const badFile = await open(`+quote(bad)+`);
let caught;
try { await `+tc.call+`; } catch (e) { caught = e; }
export default function () {
  expect(caught instanceof `+tc.errType+`, 'a `+tc.errType+`, got ' + caught);
  expect(String(caught.message).includes(`+quote(tc.inMessage)+`), 'the message to hold the reason, got ' + caught.message);
}
`)
		})
	}
}

func TestParseOutsideInitContextRejects(t *testing.T) {
	path := writeFile(t, "people.csv", people)
	run(t, `
const file = await open(`+quote(path)+`);
export default async function () {
  let caught;
  try { await csv.parse(file); } catch (e) { caught = e; }
  expect(caught && caught.message.includes('init context'), 'a rejection naming the init context, got ' + caught);
  const p = new csv.Parser(file);
  expect(same((await p.next()).value, ['name', 'age', 'city']), 'a Parser works in an iteration');
}
`)
}

// bigCSV returns a CSV file of n rows (and a header) of about 60 bytes.
func bigCSV(n int) string {
	var b strings.Builder
	b.WriteString("id,prompt,expected\n")
	for i := range n {
		fmt.Fprintf(&b, "%d,\"How do I return order %07d, please?\",refund-%d\n", i, i, i%7)
	}
	return b.String()
}

// TestParserStreamsLargeFile reads 200,000 rows (12 MB) with a Parser in
// one iteration and checks every row's id in order.
func TestParserStreamsLargeFile(t *testing.T) {
	const n = 200_000
	path := writeFile(t, "big.csv", bigCSV(n))
	run(t, `
const file = await open(`+quote(path)+`);
const parser = new csv.Parser(file, { asObjects: true });
export default async function () {
  let i = 0;
  for (let r = await parser.next(); !r.done; r = await parser.next(), i++) {
    if (r.value.id !== String(i)) throw new Error('row ' + i + ' has id ' + r.value.id);
  }
  expect(i === `+fmt.Sprint(n)+`, '`+fmt.Sprint(n)+` rows, got ' + i);
}
`)
}

// TestParseSharedBetweenVUs parses a 100,000-row file in the init code of
// two VUs of one run: the second VU reads the same rows, and its
// initialisation grows the heap by a small fraction of what the first
// VU's parse took, so the rows are not copied per VU.
func TestParseSharedBetweenVUs(t *testing.T) {
	const n = 100_000
	data := writeFile(t, "big.csv", bigCSV(n))
	script := filepath.Join(t.TempDir(), "script.js")
	src := prelude + `
const rows = await csv.parse(await open(` + quote(data) + `), { skipFirstLine: true });
export default function () {
  expect(rows.length === ` + fmt.Sprint(n) + `, 'every row, got ' + rows.length);
  expect(same(rows[12345], ['12345', 'How do I return order 0012345, please?', 'refund-4']), 'row 12345, got ' + JSON.stringify(rows[12345]));
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
	var vus []*js.VU
	var growth []int64
	for id := int64(1); id <= 2; id++ {
		before := heap()
		vu, err := b.NewVU(context.Background(), id, run)
		if err != nil {
			t.Fatal(err)
		}
		growth = append(growth, heap()-before)
		vus = append(vus, vu)
	}
	for _, vu := range vus {
		if err := vu.RunIteration(context.Background(), js.Iteration{Exec: "default", Tags: metrics.Tags{}}); err != nil {
			t.Fatalf("VU %d: %v", vu.ID(), err)
		}
	}
	t.Logf("heap growth: first VU %d KiB (file and rows), second VU %d KiB", growth[0]/1024, growth[1]/1024)
	if growth[1]*4 > growth[0] {
		t.Errorf("the second VU grew the heap by %d KiB, more than a quarter of the first's %d KiB: the rows are copied per VU", growth[1]/1024, growth[0]/1024)
	}
}

// heap returns the bytes of live heap objects after a collection.
func heap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
