package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// dataFileProject is a data-driven test: prompts from a CSV file through
// k6/experimental/csv (parsed once and streamed), and a text file read
// with k6/experimental/fs. Each of the 4 iterations adds 1 to "matched"
// when every piece read what the files hold (a VU may run from 0 to 4 of
// them, so its parser may reach the end).
var dataFileProject = map[string]string{
	"main.js": `
import { open, SeekMode } from 'k6/experimental/fs';
import csv from 'k6/experimental/csv';
import { Counter } from 'k6/metrics';
const prompts = await csv.parse(await open('./data/prompts.csv'), { asObjects: true });
const stream = new csv.Parser(await open('./data/prompts.csv'), { skipFirstLine: true });
const notes = await open('../notes/notes.txt');
const matched = new Counter('matched');
let streamed = 0; // rows this VU's parser gave: 3, then done
export const options = { vus: 2, iterations: 4, thresholds: { matched: ['count==4'] } };
export default async function () {
  const row = await stream.next();
  const rowOK = streamed++ < 3 ? !row.done && row.value.length === 2 : row.done;
  const buf = new Uint8Array(5);
  await notes.seek(0, SeekMode.Start);
  const n = await notes.read(buf);
  const info = await notes.stat();
  if (prompts.length === 3 && prompts[1].question === 'Where is my parcel?' &&
      rowOK &&
      n === 5 && String.fromCharCode(...buf) === 'hello' && info.name === 'notes.txt' && info.size === 12) {
    matched.add(1);
  }
}`,
	"data/prompts.csv":   "id,question\n1,How do I return an order?\n2,Where is my parcel?\n3,\"Can I pay later, in three parts?\"\n",
	"../notes/notes.txt": "hello world\n",
}

// TestArchiveKeepsDataFiles archives a test reading files through
// k6/experimental/fs and k6/experimental/csv, deletes them and runs the
// archive from another directory: the files come from the tar and the
// result is the original run's.
func TestArchiveKeepsDataFiles(t *testing.T) {
	t.Parallel()
	root, elsewhere := t.TempDir(), t.TempDir()
	project := filepath.Join(root, "project")
	writeProject(t, project, "", dataFileProject)
	original := filepath.Join(elsewhere, "original.json")
	r := invocation{args: []string{"run", "-q", "--summary-export", original, "main.js"}, dir: project}.run(t)
	r.wantCode(t, 0)
	if n := number(t, export(t, original), "metrics", "matched", "count"); n != 4 {
		t.Fatalf("the original run matched %v iterations, want 4\n%s", n, r.stderr)
	}

	tarPath := filepath.Join(elsewhere, "test.tar")
	invocation{args: []string{"archive", "main.js", "-O", tarPath}, dir: project}.run(t).wantCode(t, 0)
	entries := tarEntries(t, tarPath)
	for name, want := range map[string]string{
		"file" + filepath.ToSlash(filepath.Join(project, "data/prompts.csv")): dataFileProject["data/prompts.csv"],
		"file" + filepath.ToSlash(filepath.Join(root, "notes/notes.txt")):     dataFileProject["../notes/notes.txt"],
	} {
		if got, ok := entries[name]; !ok || got != want {
			t.Errorf("archive entry %s = %q (present %t), want the file; entries: %v", name, got, ok, slices.Sorted(mapsKeys(entries)))
		}
	}

	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	replayed := filepath.Join(elsewhere, "replayed.json")
	r = invocation{args: []string{"run", "-q", "--summary-export", replayed, "test.tar"}, dir: elsewhere}.run(t)
	r.wantCode(t, 0)
	if n := number(t, export(t, replayed), "metrics", "matched", "count"); n != 4 {
		t.Errorf("the archive's run matched %v iterations, want 4\n%s", n, r.stderr)
	}
}

// TestFsOpenMissingFileFailsInit runs a script opening a file that does
// not exist: the run fails before any iteration with an error naming the
// file.
func TestFsOpenMissingFileFailsInit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	main := filepath.Join(dir, "main.js")
	src := "import { open } from 'k6/experimental/fs';\nconst f = await open('./nowhere.csv');\nexport default function () {}\n"
	if err := os.WriteFile(main, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := invocation{args: []string{"run", "-q", main}, dir: dir}.run(t)
	if r.code == 0 || !strings.Contains(r.stderr, filepath.Join(dir, "nowhere.csv")) || !strings.Contains(r.stderr, "NotFoundError") {
		t.Errorf("exit %d, want a failure naming the missing file and NotFoundError; stderr:\n%s", r.code, r.stderr)
	}
}
