package main

import (
	"os"
	"path/filepath"
	"testing"
)

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The machine's memory is MemTotal of meminfo, lowered by the cgroup's
// limit: v2's memory.max of the process's group (or of the root, a
// container's view), v1's memory.limit_in_bytes; "max" and v1's
// unlimited number are no limit.
func TestMachineMemoryFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"meminfo":                      "MemTotal:       24576000 kB\nMemFree:         1000 kB\n",
		"bad-meminfo":                  "MemFree: 1 kB\n",
		"v2/cgroup":                    "0::/kubepods/pod1\n",
		"v2root/cg":                    "0::/\n",
		"v1/cgroup":                    "12:pids:/\n4:memory:/docker/abc\n1:cpu,cpuacct:/\n",
		"v1none/cg":                    "4:cpuacct,memory:/\n",
		"fs2/kubepods/pod1/memory.max": "2147483648\n",
		"fs2root/memory.max":           "max\n",
		"fs1/memory/docker/abc/memory.limit_in_bytes": "1073741824\n",
		"fs1none/memory/memory.limit_in_bytes":        "9223372036854771712\n",
	})
	if got := memTotal(filepath.Join(dir, "meminfo")); got != 24576000<<10 {
		t.Errorf("MemTotal = %d", got)
	}
	if got := memTotal(filepath.Join(dir, "bad-meminfo")); got != 0 {
		t.Errorf("meminfo without MemTotal = %d, want 0", got)
	}
	for _, tc := range []struct {
		cgroup, root string
		want         uint64
	}{
		{"v2/cgroup", "fs2", 2 << 30},
		{"v2root/cg", "fs2root", 0},
		{"v1/cgroup", "fs1", 1 << 30},
		{"v1none/cg", "fs1none", 0},
		{"missing", "fs1", 0},
	} {
		if got := cgroupLimit(filepath.Join(dir, tc.cgroup), filepath.Join(dir, tc.root)); got != tc.want {
			t.Errorf("%s under %s: limit %d, want %d", tc.cgroup, tc.root, got, tc.want)
		}
	}
	if machineMemory() == 0 {
		t.Error("this machine's memory reads as 0")
	}
}
