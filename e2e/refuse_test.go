package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runLimited runs the invocation with its address space limited to 4 GiB
// (prlimit, when the machine has it), so that a binary that tried to
// initialise the VUs it was asked for would die quickly instead of
// taking the machine's memory.
func (inv invocation) runLimited(t *testing.T) result {
	t.Helper()
	cmd, stdout, stderr := inv.command(t)
	if path, err := exec.LookPath("prlimit"); err == nil {
		cmd.Path = path
		cmd.Args = append([]string{"prlimit", "--as=4294967296", binary}, inv.args...)
	}
	start := time.Now()
	err := cmd.Run()
	return finish(t, cmd, err, start, stdout, stderr)
}

// vusBeyondMemory returns a VU count this machine's memory cannot hold at
// 144 KiB per VU (MemTotal of /proc/meminfo, which a cgroup limit only
// lowers).
func vusBeyondMemory(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		t.Skip("no /proc/meminfo")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb/144 + 1
		}
	}
	t.Skip("no MemTotal in /proc/meminfo")
	return 0
}

// TestVUCeilingExits104: VU counts above the ceiling (1,000,000 per
// instance) or beyond what the machine's memory holds exit 104 at once
// with one line naming the option — before, maxVUs 1e10 died with a Go
// out-of-memory stack trace (exit 2) and vus 1e9 initialised VUs until
// memory ran out. --no-vu-limit lifts the ceiling; inspect does not apply
// it.
func TestVUCeilingExits104(t *testing.T) {
	t.Parallel()
	arrival := func(pre, max string) string {
		return `{"scenarios":{"s":{"executor":"constant-arrival-rate","rate":1,"duration":"1s","preAllocatedVUs":` + pre + `,"maxVUs":` + max + `}}}`
	}
	beyond := strconv.FormatInt(vusBeyondMemory(t), 10)
	for _, tc := range []struct {
		name, options string
		env, args     []string
		wantErr       []string
	}{
		{name: "maxVUs 1e10", options: arrival("1", "1e10"),
			wantErr: []string{"scenarios.s.maxVUs", "10000000000 VUs", "ceiling of 1000000", "--no-vu-limit"}},
		{name: "preAllocatedVUs 1e9", options: arrival("1e9", "1e9"), wantErr: []string{"scenarios.s.preAllocatedVUs", "1000000000 VUs"}},
		{name: "vus 1e9", options: `{"vus":1e9,"duration":"1s"}`, wantErr: []string{"vus: 1000000000 VUs"}},
		{name: "stage target 1e9", options: `{"stages":[{"duration":"1s","target":1e9}]}`, wantErr: []string{"stages[0].target", "1000000000 VUs"}},
		{name: "ramping-vus startVUs", options: `{"scenarios":{"r":{"executor":"ramping-vus","startVUs":1e9,"stages":[{"duration":"1s","target":0}]}}}`,
			wantErr: []string{"scenarios.r.startVUs"}},
		{name: "--vus", args: []string{"--vus", "1000000000", "--duration", "1s"}, wantErr: []string{"vus: 1000000000 VUs"}},
		{name: "K6_VUS", options: `{"duration":"1s"}`, env: []string{"K6_VUS=1000000000"}, wantErr: []string{"vus: 1000000000 VUs"}},
		{name: "this instance's share", args: []string{"--vus", "4000000", "--duration", "1s", "--execution-segment", "1/2:1"},
			wantErr: []string{"vus: 2000000 VUs (this instance's share of 4000000)"}},
		{name: "beyond the machine's memory", options: `{"vus":` + beyond + `,"duration":"1s"}`,
			wantErr: []string{"vus: " + beyond + " VUs", "--no-vu-limit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := append([]string{"OPTIONS=" + tc.options}, tc.env...)
			args := append(append([]string{"run", "-q"}, tc.args...), script("config.js"))
			r := invocation{args: args, env: env}.runLimited(t)
			r.wantCode(t, 104)
			assertRejectedBeforeStart(t, r, tc.wantErr)
		})
	}
	t.Run("--no-vu-limit", func(t *testing.T) {
		t.Parallel()
		r := invocation{args: []string{"run", "-q", "--no-summary", "--no-vu-limit", script("config.js")},
			env: []string{"OPTIONS=" + arrival("1", "1000001")}}.runLimited(t)
		r.wantCode(t, 0)
	})
	t.Run("inspect", func(t *testing.T) {
		t.Parallel()
		r := invocation{args: []string{"inspect", script("config.js")}, env: []string{"OPTIONS=" + arrival("1", "1e10")}}.runLimited(t)
		r.wantCode(t, 0)
	})
}

// TestOutputDirectoryExits104: an output file whose path is an existing
// directory exits 104 before the test starts, with one line naming the
// option and the path — before, -o result=<directory> ran the whole test
// and lost the result with exit 0.
func TestOutputDirectoryExits104(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-o", "result=" + dir},
		{"-o", "json=" + dir},
		{"-o", "csv=" + dir},
		{"-o", "csv=fileName=" + dir},
		{"-o", "html=" + dir},
		{"--report", dir},
		{"--summary-export", dir},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			name := strings.TrimPrefix(args[0], "-o")
			if args[0] == "-o" {
				name = "--out " + strings.Split(args[1], "=")[0]
			} else if args[0] == "--report" {
				name = "--out html"
			}
			r := invocation{args: append(append([]string{"run", "-q"}, args...), script("config.js"))}.run(t)
			r.wantCode(t, 104)
			assertRejectedBeforeStart(t, r, []string{name, dir, "is a directory"})
		})
	}
}
