package archive

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"
)

// entries lists a tar's entries as "name" for files and "name -> link"
// for hard links, with the files' contents.
func entries(t *testing.T, b []byte) ([]string, map[string]string) {
	t.Helper()
	tr := tar.NewReader(bytes.NewReader(b))
	var names []string
	content := map[string]string{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return names, content
		}
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Typeflag == tar.TypeLink {
			names = append(names, hdr.Name+" -> "+hdr.Linkname)
			continue
		}
		data, _ := io.ReadAll(tr)
		names = append(names, hdr.Name)
		content[hdr.Name] = string(data)
	}
}

func sample() *Archive {
	a := New("/home/alice/tests/main.js", []byte("import './lib/a.js'"), json.RawMessage(`{"vus":2}`))
	a.Add("/home/alice/tests/main.js", []byte("not stored twice"))
	a.Add("/home/alice/tests/lib/a.js", []byte("export const a = 1"))
	a.Add("/srv/data/users.csv", []byte("name\nann\n"))
	a.Add("https://jslib.k6.io/k6-utils/1.4.0/index.js", []byte("module.exports = {}"))
	a.Env = map[string]string{"BASE": "http://127.0.0.1:1"}
	a.K6Version, a.Goos = "test", "linux"
	return a
}

// The layout is k6's: metadata.json, data, the main script linked to data
// under file/, then file/ and https/ entries; home directories anonymized.
func TestWriteLayout(t *testing.T) {
	var buf bytes.Buffer
	if err := sample().Write(&buf); err != nil {
		t.Fatal(err)
	}
	names, content := entries(t, buf.Bytes())
	want := []string{
		"metadata.json", "data", "file/home/nobody/tests/main.js -> data",
		"file/home/nobody/tests/lib/a.js", "file/srv/data/users.csv",
		"https/jslib.k6.io/k6-utils/1.4.0/index.js",
	}
	if strings.Join(names, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
	if content["data"] != "import './lib/a.js'" {
		t.Errorf("data = %q", content["data"])
	}
	var meta map[string]any
	if err := json.Unmarshal([]byte(content["metadata.json"]), &meta); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]any{
		"type": "js", "filename": "file:///home/nobody/tests/main.js", "pwd": "file:///home/nobody/tests/",
		"compatibilityMode": "extended", "k6version": "test", "goos": "linux",
	} {
		if meta[key] != want {
			t.Errorf("metadata %s = %v, want %v", key, meta[key], want)
		}
	}
	if opts, _ := json.Marshal(meta["options"]); string(opts) != `{"vus":2}` {
		t.Errorf("metadata options = %s", opts)
	}
	if env, _ := json.Marshal(meta["env"]); string(env) != `{"BASE":"http://127.0.0.1:1"}` {
		t.Errorf("metadata env = %s", env)
	}
	if strings.Contains(buf.String(), "alice") {
		t.Error("the archive names the user's home directory")
	}
}

// An archive read back serves the main script, local files (by their
// original or anonymized path) and remote modules; others are not there.
func TestReadBack(t *testing.T) {
	var buf bytes.Buffer
	if err := sample().Write(&buf); err != nil {
		t.Fatal(err)
	}
	if !IsArchive(buf.Bytes()) {
		t.Fatal("IsArchive = false for an archive")
	}
	a, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if a.MainPath() != "/home/nobody/tests/main.js" || a.Env["BASE"] != "http://127.0.0.1:1" {
		t.Errorf("main %q env %v", a.MainPath(), a.Env)
	}
	for name, want := range map[string]string{
		"/home/alice/tests/main.js":                   "import './lib/a.js'",
		"/home/nobody/tests/lib/../lib/a.js":          "export const a = 1",
		"/srv/data/users.csv":                         "name\nann\n",
		"https://jslib.k6.io/k6-utils/1.4.0/index.js": "module.exports = {}",
	} {
		got, err := a.ReadFile(name)
		if err != nil || string(got) != want {
			t.Errorf("ReadFile(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := a.ReadFile("/srv/data/other.csv"); !errors.Is(err, fs.ErrNotExist) ||
		!strings.Contains(err.Error(), "/srv/data/other.csv is not in the archive") {
		t.Errorf("missing file: %v", err)
	}
}

func tarOf(t *testing.T, files map[string]string, order ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range order {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		_, _ = tw.Write([]byte(files[name]))
	}
	_ = tw.Close()
	return buf.Bytes()
}

const meta = `{"type":"js","options":{},"filename":"file:///t/main.js","pwd":"file:///t/"}`

// Older k6 archives keep files under files/ and scripts/, local ones
// behind a leading "_".
func TestReadOldPrefixes(t *testing.T) {
	b := tarOf(t, map[string]string{
		"metadata.json": meta, "data": "x", "files/_/t/a.json": "{}", "scripts/example.com/m.js": "m",
	}, "metadata.json", "data", "files/_/t/a.json", "scripts/example.com/m.js")
	a, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := a.ReadFile("/t/a.json"); string(got) != "{}" {
		t.Errorf("files/_ entry: %q", got)
	}
	if got, _ := a.ReadFile("https://example.com/m.js"); string(got) != "m" {
		t.Errorf("scripts/ entry: %q", got)
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		order []string
		want  string
	}{
		{"no metadata", map[string]string{"data": "x"}, []string{"data"}, "no metadata.json"},
		{"no data", map[string]string{"metadata.json": meta}, []string{"metadata.json"}, "no data entry"},
		{"bad metadata", map[string]string{"metadata.json": "{", "data": "x"}, []string{"metadata.json", "data"}, "metadata.json:"},
		{"other type", map[string]string{"metadata.json": `{"type":"wasm","filename":"file:///t.js"}`, "data": "x"},
			[]string{"metadata.json", "data"}, `unsupported test type "wasm"`},
		{"unknown entry", map[string]string{"metadata.json": meta, "data": "x", "src/t.js": "y"},
			[]string{"metadata.json", "data", "src/t.js"}, `unknown entry "src/t.js"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tarOf(t, tc.files, tc.order...)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := Read(strings.NewReader("export default function () {}\n")); err == nil {
		t.Error("a script read as an archive")
	}
}

func TestIsArchive(t *testing.T) {
	for _, s := range []string{"", "export default function () {}\n", strings.Repeat("x", 2048)} {
		if IsArchive([]byte(s)) {
			t.Errorf("IsArchive(%.20q) = true", s)
		}
	}
}

func TestAnonymize(t *testing.T) {
	for in, want := range map[string]string{
		"/home/alice/t.js":       "/home/nobody/t.js",
		"/Users/bob/x/../t.js":   "/Users/nobody/t.js",
		"/home/alice":            "/home/nobody",
		"/srv/home/alice/t.js":   "/srv/home/alice/t.js",
		"/tmp/test.js":           "/tmp/test.js",
		"/home/alice/a/b/c/d.js": "/home/nobody/a/b/c/d.js",
	} {
		if got := Anonymize(in); got != want {
			t.Errorf("Anonymize(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzRead: any input is refused with an error or read; what is read
// writes and reads back to the same files.
func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	_ = sample().Write(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte("export default function () {}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := a.Write(&out); err != nil {
			return // a name Write cannot store
		}
		b, err := Read(&out)
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		if string(b.Data) != string(a.Data) || len(b.Files) > len(a.Files) {
			t.Errorf("round trip changed the archive: %d files → %d", len(a.Files), len(b.Files))
		}
		for name, data := range b.Files {
			if string(a.Files[name]) != string(data) {
				t.Errorf("%s changed", name)
			}
		}
	})
}
