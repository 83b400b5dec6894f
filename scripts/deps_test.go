// Package scripts holds the repository's shell scripts; its tests run them
// against fake programs.
package scripts

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fake is a program that only appends its name, its arguments and
// DEBIAN_FRONTEND to $DEPS_TEST_LOG: it installs nothing and touches no
// network.
const fake = `#!/bin/sh
echo "${DEBIAN_FRONTEND:+DEBIAN_FRONTEND=$DEBIAN_FRONTEND }NAME $*" >> "$DEPS_TEST_LOG"
`

// sudoNoPassword answers "sudo -n true" with success, as sudo does for a
// user who may run commands without a password.
const sudoNoPassword = fake

// sudoPassword refuses "sudo -n true", as sudo does when it would ask for
// a password.
const sudoPassword = fake + `[ "$1 $2" = "-n true" ] && exit 1
exit 0
`

type depsRun struct {
	code           int
	stdout, stderr string
	log            string // what the fake programs were asked to do
}

// runDeps runs scripts/deps with PATH holding only fakes of the given
// programs (name -> script; "" for the plain fake), so the others are
// missing, and the environment reduced to env.
func runDeps(t *testing.T, programs map[string]string, env []string, args ...string) depsRun {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, script := range programs {
		if script == "" {
			script = fake
		}
		script = strings.ReplaceAll(script, "NAME", name)
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(dir, "log")
	cmd := exec.Command(bash, append([]string{"deps"}, args...)...)
	cmd.Env = append([]string{"PATH=" + bin, "HOME=" + dir, "DEPS_TEST_LOG=" + log}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	run := depsRun{}
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("running scripts/deps: %v", err)
		}
		run.code = exit.ExitCode()
	}
	run.stdout, run.stderr = stdout.String(), stderr.String()
	if b, err := os.ReadFile(log); err == nil {
		run.log = string(b)
	}
	return run
}

// all is every program the tests need, plus apt-get.
func all(except ...string) map[string]string {
	m := map[string]string{"node": "", "npm": "", "prometheus": "", "influxd": "", "chromium": "", "redis-server": "", "apt-get": ""}
	for _, name := range except {
		delete(m, name)
	}
	return m
}

func with(m map[string]string, name, script string) map[string]string {
	m[name] = script
	return m
}

func (r depsRun) expect(t *testing.T, code int, stdout, stderr, log string) {
	t.Helper()
	if r.code != code || r.stdout != stdout || r.stderr != stderr || r.log != log {
		t.Errorf("scripts/deps: exit %d, stdout %q, stderr %q, programs run %q\nwant: exit %d, stdout %q, stderr %q, programs run %q",
			r.code, r.stdout, r.stderr, r.log, code, stdout, stderr, log)
	}
}

// With everything present the script is a few checks: no output, no
// apt-get, no sudo.
func TestDepsAllPresent(t *testing.T) {
	runDeps(t, all(), []string{"DEPS_UID=0"}).expect(t, 0, "", "", "")
	runDeps(t, with(all(), "sudo", sudoNoPassword), []string{"DEPS_UID=1000"}).expect(t, 0, "", "", "")
}

// e2e/html_test.go takes $CHROMIUM or chromium-browser as well as chromium;
// so does the script.
func TestDepsChromiumNames(t *testing.T) {
	runDeps(t, with(all("chromium"), "chromium-browser", ""), []string{"DEPS_UID=0"}).expect(t, 0, "", "", "")
	runDeps(t, with(all("chromium"), "my-chrome", ""), []string{"DEPS_UID=0", "CHROMIUM=my-chrome"}).expect(t, 0, "", "", "")
	runDeps(t, all("chromium"), []string{"DEPS_UID=0", "CHROMIUM=my-chrome", "DEPS_DRY_RUN=1"}).expect(t, 0,
		"deps: missing chromium: would run: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium\n", "", "")
}

// As root the dry run names the missing tool, its Debian package and the
// apt-get command, and runs nothing.
func TestDepsRootDryRun(t *testing.T) {
	want := "deps: missing prometheus: would run: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y prometheus\n"
	runDeps(t, all("prometheus"), []string{"DEPS_UID=0"}, "--dry-run").expect(t, 0, want, "", "")
	runDeps(t, all("prometheus"), []string{"DEPS_UID=0", "DEPS_DRY_RUN=1"}).expect(t, 0, want, "", "")
	runDeps(t, all("influxd"), []string{"DEPS_UID=0"}, "--dry-run").expect(t, 0,
		"deps: missing influxd: would run: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y influxdb\n", "", "")
	runDeps(t, all("node", "npm"), []string{"DEPS_UID=0"}, "--dry-run").expect(t, 0,
		"deps: missing node, npm: would run: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm\n", "", "")
}

// As root without --dry-run it runs apt-get, then checks again: the fake
// apt-get installs nothing, so the tool is still missing.
func TestDepsRootInstalls(t *testing.T) {
	runDeps(t, all("prometheus"), []string{"DEPS_UID=0"}).expect(t, 1,
		"deps: missing prometheus: running: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y prometheus\n",
		"deps: still missing prometheus after installing prometheus\n",
		"apt-get update\nDEBIAN_FRONTEND=noninteractive apt-get install -y prometheus\n")
}

// A user whom sudo lets in without a password gets the same through sudo.
func TestDepsSudo(t *testing.T) {
	programs := with(all("chromium"), "sudo", sudoNoPassword)
	runDeps(t, programs, []string{"DEPS_UID=1000"}, "--dry-run").expect(t, 0,
		"deps: missing chromium: would run: sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y chromium\n",
		"", "sudo -n true\n")
	runDeps(t, programs, []string{"DEPS_UID=1000"}).expect(t, 1,
		"deps: missing chromium: running: sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y chromium\n",
		"deps: still missing chromium after installing chromium\n",
		"sudo -n true\nsudo apt-get update\nsudo DEBIAN_FRONTEND=noninteractive apt-get install -y chromium\n")
}

// Anyone else is stopped at once with the one command to run.
func TestDepsNotRoot(t *testing.T) {
	want := "deps: missing node, prometheus: run: sudo apt-get update && sudo apt-get install -y nodejs prometheus\n"
	runDeps(t, all("node", "prometheus"), []string{"DEPS_UID=1000"}).expect(t, 1, "", want, "")
	runDeps(t, all("node", "prometheus"), []string{"DEPS_UID=1000"}, "--dry-run").expect(t, 1, "", want, "")
	runDeps(t, with(all("node", "prometheus"), "sudo", sudoPassword), []string{"DEPS_UID=1000"}).expect(t, 1, "", want, "sudo -n true\n")
}

// Without apt-get the script names what to install by hand.
func TestDepsNoAptGet(t *testing.T) {
	runDeps(t, all("apt-get", "npm", "chromium"), []string{"DEPS_UID=0"}).expect(t, 1, "",
		"deps: missing npm, chromium, and there is no apt-get: install npm (make types), Chromium (e2e HTML report test) with your package manager, then run make test again\n", "")
}
