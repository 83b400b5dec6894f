package e2e

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// addressSpace bounds the address space of a merge that the tests measure
// (ulimit -v, in KiB): a regression fails the test with an out-of-memory
// error instead of taking the machine down. The binary needs about 1 GiB
// of address space to start.
const addressSpace = 2 << 20

// measured runs the binary within addressSpace and returns its result and
// its peak resident memory in MiB.
func measured(t *testing.T, env []string, args ...string) (result, int64) {
	t.Helper()
	inv := invocation{env: env, args: append([]string{"-c", fmt.Sprintf(`ulimit -v %d; exec "$0" "$@"`, addressSpace), binary}, args...)}
	cmd, stdout, stderr := inv.command(t)
	cmd.Path, cmd.Args[0] = "/bin/sh", "sh"
	start := time.Now()
	err := cmd.Run()
	r := finish(t, cmd, err, start, stdout, stderr)
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no resource usage of the process on this system")
	}
	return r, ru.Maxrss >> 10 // KiB on Linux
}

// gz compresses parts into one gzip member, at the best compression.
func gz(parts ...[]byte) []byte {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	for _, p := range parts {
		w.Write(p)
	}
	w.Close()
	return b.Bytes()
}

// zeros is n MiB of zeros as n gzip members of 1 MiB (1 KiB each), which a
// gzip reader reads as one stream.
func zeros(n int) []byte { return bytes.Repeat(gz(make([]byte, 1<<20)), n) }

// crafted is the header line of a result with members added.
func crafted(members string) []byte {
	return []byte(`{"format":"usefullatency-result","version":1,"test_id":"t","segments":["0:1"]` + members + "}\n")
}

// declare declares n trend metrics of count values each.
func declare(n int, count int64) string {
	ms := make([]string, n)
	for i := range ms {
		ms[i] = fmt.Sprintf(`{"name":"trend%d","type":"trend","contains":"time","sink":{"count":%d}}`, i, count)
	}
	return `,"metrics":[` + strings.Join(ms, ",") + "]"
}

// TestMergeRefusesCraftedResults: crafted result files — a compression
// bomb, trends declaring what the file cannot hold, a header of empty
// objects, nested compression, a truncated bomb — are refused with 104 and
// one line naming the file and the limit, in bounded memory. Before the
// limits, the 1 MiB gzip of zeros cost 492 MB and the 102 KB file of 100
// trends over 3.9 GB.
func TestMergeRefusesCraftedResults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	trends := append(gz(crafted(declare(100, 1<<20))), zeros(100)...)
	files := []struct {
		name string
		data []byte
		want string
	}{
		{"zeros.res", zeros(1024), "result file too large: decompression ratio above 100:1"},
		{"trends.res", trends, "result file too large: its trends declare more values than the rest of the file can hold"},
		{"objects.res", gz(crafted(`,"metrics":[` + strings.TrimSuffix(strings.Repeat("{},", 300_000), ",") + "]")), "result file too large: the header's"},
		{"count.res", gz(crafted(declare(1, 1<<40)), []byte{1, 2, 3}), "result file too large: its trends declare more values"},
		{"nested.res", gz(zeros(1024)), "result file too large: decompression ratio above 100:1"},
		{"truncated.res", trends[:len(trends)/2], "result file too large"},
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(dir, f.name)
			if err := os.WriteFile(path, f.data, 0o644); err != nil {
				t.Fatal(err)
			}
			r, peak := measured(t, nil, "merge", path)
			r.wantCode(t, 104)
			if line := r.errorLine(t); !strings.Contains(line, path+": "+f.want) {
				t.Errorf("error line %q, want it to name %s and contain %q", line, path, f.want)
			}
			if n := strings.Count(r.stderr, "\n"); n != 1 {
				t.Errorf("%d lines on stderr, want one:\n%s", n, r.stderr)
			}
			if peak > 150 {
				t.Errorf("merge of %d KiB peaked at %d MiB of memory, want at most 150", len(f.data)>>10, peak)
			}
			t.Logf("%s: %d KiB, refused at a peak of %d MiB", f.name, len(f.data)>>10, peak)
		})
	}
}

// TestMergeCraftedWithinMultiple: crafted files that pass every limit —
// 100,000 metrics in the header, 4 million one-byte trend values at a
// ratio just under 100:1 — merge within 50 times their decompressed size
// (plus the program's own 64 MiB), the multiple docs/result-format.md
// documents.
func TestMergeCraftedWithinMultiple(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var ms []string
	for i := range 100_000 {
		ms = append(ms, fmt.Sprintf(`{"name":"m%x","type":"counter","contains":"default","sink":{"sum":1,"count":1}}`, i))
	}
	metrics := crafted(`,"metrics":[` + strings.Join(ms, ",") + "]")
	values := make([]byte, 4<<20)
	for i := 0; i < len(values); i += 40 {
		values[i] = byte(i>>6) & 0x7f
	}
	valuesHead := crafted(declare(1, int64(len(values))))
	trailer := []byte("ULEND\x00\x00\x00")
	for _, f := range []struct {
		name  string
		plain [][]byte
	}{
		{"metrics.res", [][]byte{metrics, trailer}},
		{"values.res", [][]byte{valuesHead, values, trailer}},
	} {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(dir, f.name)
			data := gz(f.plain...)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			size := int64(len(bytes.Join(f.plain, nil)))
			r, peak := measured(t, nil, "merge", "--no-summary", path)
			r.wantCode(t, 0)
			if limit := 50*size>>20 + 64; peak > limit {
				t.Errorf("merge of %d KiB (%d KiB decompressed) peaked at %d MiB, want at most %d", len(data)>>10, size>>10, peak, limit)
			}
			t.Logf("%s: %d KiB of gzip, %d KiB decompressed (%.0f:1), peak %d MiB", f.name, len(data)>>10, size>>10, float64(size)/float64(len(data)), peak)
		})
	}
}

// rewriteThresholds writes a copy of the result file src at dst with the
// thresholds of its header replaced: what a runner given other thresholds
// under the same test id (or an edited file) would hold.
func rewriteThresholds(t *testing.T, src, dst, thresholds string) {
	t.Helper()
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(zr)
	line, err := br.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(br)
	if err != nil {
		t.Fatal(err)
	}
	var header map[string]json.RawMessage
	if err := json.Unmarshal(line, &header); err != nil {
		t.Fatal(err)
	}
	header["thresholds"] = json.RawMessage(thresholds)
	line, _ = json.Marshal(header)
	if err := os.WriteFile(dst, gz(line, []byte("\n"), rest), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMergeRefusesDifferentThresholds: files of one test id whose
// thresholds differ are refused with 104 and one line naming both files,
// whatever their order; before, the first file's thresholds judged the
// merge: exit 0 one way, 99 the other.
func TestMergeRefusesDifferentThresholds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := runShares(t, dir, "loose", 0)
	strict := filepath.Join(dir, "strict.res")
	rewriteThresholds(t, files[1], strict, `{"done":[{"threshold":"count<60"}],"iit{parity:even}":[{"threshold":"min>=0"}]}`)
	for _, order := range [][]string{{files[0], strict, files[2]}, {strict, files[0], files[2]}} {
		r := run(t, append([]string{"merge", "--no-summary"}, order...)...)
		r.wantCode(t, 104)
		want := fmt.Sprintf("%s and %s have different thresholds (on \"done\")", order[0], order[1])
		if line := r.errorLine(t); !strings.Contains(line, want) {
			t.Errorf("error line %q, want it to contain %q", line, want)
		}
	}
}

// TestResultSetupData: setup()'s data (here a token) is left out of the
// result file, so merge --script's handleSummary gets none, unless
// `-o result=FILE,setupData=true` keeps it.
func TestResultSetupData(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const token = "S3CR3T-setup-token"
	for _, tt := range []struct {
		out  string
		file string
		want string
	}{
		{"result=" + filepath.Join(dir, "plain.res"), "plain.res", `{"setup":null}`},
		{"result=" + filepath.Join(dir, "kept.res") + ",setupData=true", "kept.res", `{"setup":{"token":"` + token + `"}}`},
	} {
		file := filepath.Join(dir, tt.file)
		run(t, "run", "-q", "-o", tt.out, script("result/setup_data.js")).wantCode(t, 0)
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := io.ReadAll(zr)
		if kept := strings.HasPrefix(tt.file, "kept"); bytes.Contains(plain, []byte(token)) != kept {
			t.Errorf("-o %s: the file holds the token: %v, want %v", tt.out, !kept, kept)
		}
		m := run(t, "merge", "--script", script("result/setup_data.js"), file)
		m.wantCode(t, 0)
		if strings.TrimSpace(m.stdout) != tt.want {
			t.Errorf("-o %s: merge --script handleSummary printed %s, want %s", tt.out, m.stdout, tt.want)
		}
	}
	// merge -o writes the setup data the files kept; ",setupData=false"
	// drops it.
	kept, again, dropped := filepath.Join(dir, "kept.res"), filepath.Join(dir, "again.res"), filepath.Join(dir, "dropped.res")
	run(t, "merge", "--no-summary", "-o", "result="+again, kept).wantCode(t, 0)
	run(t, "merge", "--no-summary", "-o", "result="+dropped+",setupData=false", kept).wantCode(t, 0)
	for file, want := range map[string]string{again: `{"setup":{"token":"` + token + `"}}`, dropped: `{"setup":null}`} {
		m := run(t, "merge", "--script", script("result/setup_data.js"), file)
		m.wantCode(t, 0)
		if strings.TrimSpace(m.stdout) != want {
			t.Errorf("%s: handleSummary printed %s, want %s", filepath.Base(file), m.stdout, want)
		}
	}
}

// TestMergeResultMaxSize: K6_RESULT_MAX_SIZE sets the largest decompressed
// size merge reads; a file over it is refused naming the limit and the
// variable, a value that is no size is refused naming the variable.
func TestMergeResultMaxSize(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "r.res")
	run(t, "run", "-q", "--no-summary", "-o", "result="+file, script("result/iterations.js")).wantCode(t, 0)
	small := invocation{env: []string{"K6_RESULT_MAX_SIZE=1KiB"}, args: []string{"merge", "--no-summary", file}}.run(t)
	small.wantCode(t, 104)
	if line := small.errorLine(t); !strings.Contains(line, file+": result file too large: more than 1 KiB decompressed (the limit; K6_RESULT_MAX_SIZE raises it)") {
		t.Errorf("error line %q", line)
	}
	invocation{env: []string{"K6_RESULT_MAX_SIZE=64MiB"}, args: []string{"merge", "--no-summary", file}}.run(t).wantCode(t, 0)
	bad := invocation{env: []string{"K6_RESULT_MAX_SIZE=lots"}, args: []string{"merge", "--no-summary", file}}.run(t)
	bad.wantCode(t, 104)
	if line := bad.errorLine(t); !strings.Contains(line, `K6_RESULT_MAX_SIZE="lots"`) {
		t.Errorf("error line %q", line)
	}
}
