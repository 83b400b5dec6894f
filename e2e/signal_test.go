package e2e

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalDuringInitAndSetup sends SIGINT or SIGTERM while the script
// loops forever in its init code or in setup() (once it logged that it is
// there): the JavaScript is interrupted, the run exits 105 at once, and once
// the options are known (VU initialisation, setup) the summary and the
// summary export are written.
func TestSignalDuringInitAndSetup(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, stage, marker string
		sig                 os.Signal
		wantExport          bool
	}{
		{"SIGINT while loading the script", "load", "looping in init", os.Interrupt, false},
		{"SIGINT during VU initialisation", "vus", "looping in init", os.Interrupt, true},
		{"SIGTERM during VU initialisation", "vus", "looping in init", syscall.SIGTERM, true},
		{"SIGINT during setup", "setup", "looping in setup", os.Interrupt, true},
		{"SIGTERM during setup", "setup", "looping in setup", syscall.SIGTERM, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "export.json")
			inv := invocation{
				args: []string{"run", "-q", "--summary-export", out, script("signal_init.js")},
				env:  []string{"STAGE=" + tt.stage},
			}
			cmd, stdout, stderr := inv.command(t)
			log := newWatcher()
			cmd.Stderr = io.MultiWriter(stderr, log)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			log.await(t, "signal_init.js: "+tt.marker)
			sent := time.Now()
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			r := finish(t, cmd, cmd.Wait(), sent, stdout, stderr)
			r.wantCode(t, 105)
			if r.elapsed > 10*time.Second {
				t.Errorf("exit took %s after the signal; want a prompt stop", r.elapsed)
			}
			if !strings.Contains(r.stderr, "interrupted") {
				t.Errorf("stderr does not say the run was interrupted:\n%s", r.stderr)
			}
			_, err := os.Stat(out)
			if !tt.wantExport {
				if err == nil {
					t.Errorf("summary export written though the options were never known")
				}
				return
			}
			if err != nil {
				t.Fatalf("no summary export after the signal: %v\nstderr:\n%s", err, r.stderr)
			}
			if _, ok := lookup(export(t, out), "metrics"); !ok {
				t.Errorf("summary export without metrics")
			}
			if !strings.Contains(r.stdout, "TOTAL RESULTS") {
				t.Errorf("no summary after the signal:\n%s", r.stdout)
			}
		})
	}
}
