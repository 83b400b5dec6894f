package js_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/usefullatency/usefullatency/js"
)

// memFiles is a js.Files over a map, as an archive serves its files.
type memFiles map[string][]byte

func (m memFiles) ReadFile(name string) ([]byte, error) {
	if data, ok := m[name]; ok {
		return data, nil
	}
	return nil, fmt.Errorf("%s is not here: %w", name, fs.ErrNotExist)
}

// recorder collects what Config.OnRead reports.
type recorder struct {
	mu    sync.Mutex
	files memFiles
}

func (r *recorder) record(name string, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files[name] = data
}

// A test's files — an ES import, a CommonJS require, an open()ed file
// (also through k6/data), a remote module and the module it requires —
// are all reported to OnRead; a bundle given only those files through
// Config.Files runs the same with the directory deleted and the server
// gone.
func TestFilesServeEverythingTheTestRead(t *testing.T) {
	srv, _ := moduleServer(t)
	dir := writeFiles(t, map[string]string{
		"main.js": `
import lib from '` + srv.URL + `/lib/1.0.0/index.js';
import { twice } from './lib/math.js';
import { SharedArray } from 'k6/data';
const cjs = require('./lib/legacy.cjs');
const users = new SharedArray('users', () => JSON.parse(open('./data/users.json')));
const raw = open('data/bytes.bin', 'b');
export default function () {
  return [lib.label(), twice(users.length), cjs.name, raw.byteLength].join('|');
}`,
		"lib/math.js":     `export const twice = (n) => 2 * n;`,
		"lib/legacy.cjs":  `module.exports = { name: 'legacy' };`,
		"data/users.json": `["ann", "bob", "cid"]`,
		"data/bytes.bin":  "\x00\x01\x02\x03",
	})
	main := filepath.Join(dir, "main.js")
	rec := &recorder{files: memFiles{}}
	b, err := js.NewBundleConfig(main, js.Config{HTTPClient: srv.Client(), OnRead: rec.record})
	if err != nil {
		t.Fatal(err)
	}
	const want = "remote function|6|legacy|4"
	if got := callDefault(t, b, 1); got != want {
		t.Fatalf("default() = %q, want %q", got, want)
	}
	var names []string
	for name := range rec.files {
		names = append(names, strings.TrimPrefix(strings.TrimPrefix(name, dir), srv.URL))
	}
	sort.Strings(names)
	wantNames := "/data/bytes.bin /data/users.json /lib/1.0.0/index.js /lib/1.0.0/util.js /lib/legacy.cjs /lib/math.js /main.js"
	if strings.Join(names, " ") != wantNames {
		t.Errorf("read %v, want %s", names, wantNames)
	}

	srv.Close()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	replay, err := js.NewBundleConfig(main, js.Config{Files: rec.files})
	if err != nil {
		t.Fatal(err)
	}
	if got := callDefault(t, replay, 2); got != want {
		t.Errorf("from the recorded files: default() = %q, want %q", got, want)
	}
}

// A file the Files do not hold fails the import or open() naming it.
func TestFilesMissingFile(t *testing.T) {
	files := memFiles{"/t/main.js": []byte(`const d = open('./d.json'); export default function () {}`)}
	b, err := js.NewBundleConfig("/t/main.js", js.Config{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	run, _ := newRun()
	_, err = b.NewVU(t.Context(), 1, run)
	if err == nil || !strings.Contains(err.Error(), `open("./d.json")`) || !strings.Contains(err.Error(), "/t/d.json is not here") {
		t.Errorf("err = %v", err)
	}
	files["/t/main.js"] = []byte(`import x from './x.js'; export default x;`)
	if _, err := js.NewBundleConfig("/t/main.js", js.Config{Files: files}); err == nil ||
		!strings.Contains(err.Error(), "/t/x.js is not here") {
		t.Errorf("err = %v", err)
	}
}
