package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesATestReadsAreBounded runs, inspects and archives scripts that
// open /dev/zero, a 10 GiB sparse file, or a file above --max-file-size:
// each ends at once with one line naming the file and the limit, instead
// of reading without end; --max-file-size raises the limit and a bad
// value is refused with 104.
func TestFilesATestReadsAreBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeProject(t, dir, "", map[string]string{
		"zero.js":   `const z = open('/dev/zero'); export default function () {}`,
		"sparse.js": `import { open as fsOpen } from 'k6/experimental/fs'; const f = await fsOpen('./sparse.bin'); export default function () {}`,
		"small.js":  `const s = open('./data.txt'); export default function () { if (s.length !== 2048) throw new Error('read ' + s.length); }`,
		"data.txt":  strings.Repeat("d", 2048),
	})
	f, err := os.Create(filepath.Join(dir, "sparse.bin"))
	if err != nil || f.Truncate(10<<30) != nil || f.Close() != nil {
		t.Fatalf("a 10 GiB sparse file: %v", err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"run open(/dev/zero)", []string{"run", "-q", "zero.js"}, 107, `open("/dev/zero"): /dev/zero is not a regular file (a device)`},
		{"run fs.open of 10 GiB", []string{"run", "-q", "sparse.js"}, 107,
			filepath.Join(dir, "sparse.bin") + " is 10 GiB, more than the 1 GiB a test may read from one file (raise it with --max-file-size)"},
		{"archive of open(/dev/zero)", []string{"archive", "-O", filepath.Join(dir, "a.tar"), "zero.js"}, 107, "/dev/zero is not a regular file"},
		{"inspect under --max-file-size", []string{"inspect", "--max-file-size", "1KiB", "small.js"}, 107,
			filepath.Join(dir, "data.txt") + " is 2 KiB, more than the 1 KiB a test may read from one file"},
		{"a bad --max-file-size", []string{"run", "--max-file-size", "lots", "small.js"}, 104, `invalid argument "lots" for "--max-file-size" flag: want a size such as 2GiB`},
		{"a raised --max-file-size", []string{"run", "-q", "--max-file-size", "2KiB", "-i", "1", "small.js"}, 0, ""},
		{"the script itself", []string{"run", "-q", "--max-file-size", "10", "small.js"}, 107, "small.js is 120 bytes, more than the 10 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := invocation{args: tc.args, dir: dir}.run(t)
			if tc.want == "" {
				r.wantCode(t, tc.code)
				return
			}
			line := r.errorLine(t)
			if !strings.Contains(line, tc.want) {
				t.Fatalf("error line %q, want it to contain %q", line, tc.want)
			}
			r.wantCode(t, tc.code)
			if r.elapsed.Seconds() > 30 {
				t.Fatalf("took %s", r.elapsed)
			}
		})
	}
}
