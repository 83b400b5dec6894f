package js_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/usefullatency/usefullatency/js"
)

// TestReadLocalFileRefusesWhatIsNotABoundedRegularFile reads a device, a
// FIFO, a directory, a 10 GiB sparse file and files at and above a limit:
// each refusal comes before a byte is read, names the file and, for a size,
// the limit and how to raise it.
func TestReadLocalFileRefusesWhatIsNotABoundedRegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse.bin")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	at := filepath.Join(dir, "at.txt")
	above := filepath.Join(dir, "above.txt")
	if os.WriteFile(at, []byte(strings.Repeat("a", 1024)), 0o644) != nil || os.WriteFile(above, []byte(strings.Repeat("a", 1025)), 0o644) != nil {
		t.Fatal("write")
	}
	for _, tc := range []struct {
		name, path string
		max        int64
		want       string // "" reads the file whole
	}{
		{"a character device", "/dev/zero", 0, "/dev/zero is not a regular file (a device): a test reads regular files only"},
		{"a FIFO is not even opened", fifo, 0, fifo + " is not a regular file (a FIFO)"},
		{"a directory", dir, 0, "is a directory"},
		{"a 10 GiB sparse file", sparse, 0, sparse + " is 10 GiB, more than the 1 GiB a test may read from one file (raise it with --max-file-size)"},
		{"a file at the limit", at, 1024, ""},
		{"a file one byte above the limit", above, 1024, above + " is 1025 bytes, more than the 1 KiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			data, err := js.ReadLocalFile(tc.path, tc.max)
			runtime.ReadMemStats(&after)
			if tc.want == "" {
				if err != nil || int64(len(data)) != tc.max {
					t.Fatalf("%d bytes, %v", len(data), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || data != nil {
				t.Fatalf("err %v, want it to contain %q", err, tc.want)
			}
			if tc.path == dir && !errors.Is(err, syscall.EISDIR) {
				t.Fatalf("a directory: %v, want EISDIR as os.ReadFile", err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<10 {
				t.Fatalf("the refusal allocated %d KiB", alloc>>10)
			}
		})
	}
}

// TestOpenRefusesDevicesAndFilesAboveTheLimit checks open() in init code:
// /dev/zero and a file above the bundle's MaxFileSize fail the init with
// an error naming the file, and the script, its imports and open() all
// obey the limit.
func TestOpenRefusesDevicesAndFilesAboveTheLimit(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"device.js": `const z = open('/dev/zero'); export default function () {}`,
		"big.js":    `const b = open('./big.txt', 'b'); export default function () {}`,
		"small.js":  `const s = open('./small.txt'); export default function () { return s; }`,
		"big.txt":   strings.Repeat("b", 4097),
		"small.txt": strings.Repeat("s", 4096),
	})
	for _, tc := range []struct{ script, want string }{
		{"device.js", `open("/dev/zero"): /dev/zero is not a regular file (a device)`},
		{"big.js", `open("./big.txt"): ` + filepath.Join(dir, "big.txt") + ` is 4097 bytes, more than the 4 KiB a test may read from one file (raise it with --max-file-size`},
	} {
		t.Run(tc.script, func(t *testing.T) {
			b, err := js.NewBundleConfig(filepath.Join(dir, tc.script), js.Config{MaxFileSize: 4096})
			if err == nil {
				run, _ := newRun()
				_, err = b.NewVU(context.Background(), 1, run)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want it to contain %q", err, tc.want)
			}
		})
	}
	b, err := js.NewBundleConfig(filepath.Join(dir, "small.js"), js.Config{MaxFileSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if got := callDefault(t, b, 1); len(got) != 4096 {
		t.Fatalf("a file at the limit: %d bytes", len(got))
	}
	if _, err := js.NewBundleConfig(filepath.Join(dir, "small.js"), js.Config{MaxFileSize: 16}); err == nil || !strings.Contains(err.Error(), "small.js is 71 bytes, more than the 16 bytes") {
		t.Fatalf("a script above the limit: %v", err)
	}
}
