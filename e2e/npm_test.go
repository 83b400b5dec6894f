package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// npmPackages are the third-party script libraries installed at test time
// (never committed): a UMD bundle (papaparse) and a browser bundle of chai,
// which jslib's k6chaijs wraps.
var npmPackages = []string{"papaparse@5", "chai@4"}

// TestNPMPackages installs real packages from npm into a temporary
// directory and runs a script that imports their bundles unchanged.
func TestNPMPackages(t *testing.T) {
	t.Parallel()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatalf("npm is missing (make deps installs nodejs and npm): %v", err)
	}
	dir := t.TempDir()
	install := exec.Command(npm, append([]string{"install", "--no-audit", "--no-fund", "--silent", "--prefix", dir}, npmPackages...)...)
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install %v: %v\n%s", npmPackages, err, out)
	}
	src, err := os.ReadFile(script("npm/packages.js"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "packages.js")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "run", "--no-color", path)
	r.wantCode(t, 0)
	if failed := failedChecks(r.stdout); len(failed) > 0 {
		t.Errorf("failed checks: %v\n%s", failed, r.stdout)
	}
}
