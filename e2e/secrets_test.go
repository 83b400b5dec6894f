package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secretMask is what k6 prints in place of a secret source's value.
const secretMask = "***SECRET_REDACTED***"

// wantChecksPassed fails the test unless the summary export at path has
// every check passed, n of them.
func wantChecksPassed(t *testing.T, path string, n float64) {
	t.Helper()
	exp := export(t, path)
	if p, f := number(t, exp, "metrics", "checks", "passes"), number(t, exp, "metrics", "checks", "fails"); p != n || f != 0 {
		t.Errorf("checks passes/fails = %v/%v, want %v/0", p, f, n)
	}
}

// TestSecretSourceMock gets a mock source's secret, checks it and logs it,
// to stderr and then to a --console-output file in JSON: the logs show
// the mask, never the value.
func TestSecretSourceMock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	summary, console := filepath.Join(dir, "summary.json"), filepath.Join(dir, "console.log")
	r := run(t, "run", "-q", "--secret-source=mock=token=abc123", "--summary-export", summary, script("secrets/get.js"))
	r.wantCode(t, 0)
	wantChecksPassed(t, summary, 4)
	if strings.Contains(r.stdout+r.stderr, "abc123") {
		t.Errorf("the output shows the secret:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	for _, want := range []string{"INFO[0000] the token is " + secretMask, `WARN[0000] {"authorization":"Bearer ` + secretMask + `"}`} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}

	r = run(t, "run", "-q", "--no-summary", "--log-format", "json", "--console-output", console,
		"--secret-source", "mock=token=abc123", script("secrets/get.js"))
	r.wantCode(t, 0)
	b, err := os.ReadFile(console)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "abc123") || strings.Count(string(b), secretMask) != 4 {
		t.Errorf("the console file shows the secret, or not the mask 4 times:\n%s", b)
	}
}

// TestSecretSourceFile reads a named file source, in the init context
// too, beside a default mock source; then K6_SECRET_SOURCE gives the
// source.
func TestSecretSourceFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.json")
	file := script("secrets/file.secret")
	r := invocation{args: []string{"run", "-q", "--summary-export", summary,
		"--secret-source", "file=name=vault,filename=" + file, "--secret-source", "mock=default,cool=from mock",
		script("secrets/file.js")}}.run(t)
	r.wantCode(t, 0)
	wantChecksPassed(t, summary, 4)
	if want := "INFO[0000] " + strings.Repeat(secretMask+" ", 3); !strings.Contains(r.stderr+" ", want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	for _, value := range []string{"some", "source value", "from mock"} {
		if strings.Contains(r.stderr, value) {
			t.Errorf("stderr shows %q:\n%s", value, r.stderr)
		}
	}

	// K6_SECRET_SOURCE stands for the flag when none is given: its whole
	// value is one source.
	r = invocation{args: []string{"run", "-q", "--no-summary", script("secrets/get.js")},
		env: []string{"K6_SECRET_SOURCE=mock=token=abc123"}}.run(t)
	r.wantCode(t, 0)
	if strings.Contains(r.stderr, "abc123") || !strings.Contains(r.stderr, "the token is "+secretMask) {
		t.Errorf("with K6_SECRET_SOURCE, stderr lacks the mask or shows the value:\n%s", r.stderr)
	}
}

// TestSecretMissing checks a missing secret: a caught rejection carries
// k6's message, an uncaught one is the iteration's error, and the run
// goes on to exit 0.
func TestSecretMissing(t *testing.T) {
	t.Parallel()
	summary := filepath.Join(t.TempDir(), "summary.json")
	r := run(t, "run", "-q", "--secret-source=mock=token=abc123", "--summary-export", summary, script("secrets/missing.js"))
	r.wantCode(t, 0)
	wantChecksPassed(t, summary, 1)
	if line := r.errorLine(t); !strings.Contains(line, `no secret source with name "elsewhere" is configured`) {
		t.Errorf("error line %q, want the unknown source named", line)
	}
}

// TestSecretSourceErrors gives wrong --secret-source values (and
// K6_SECRET_SOURCE ones) to run, inspect and archive: each exits 104 with
// one line naming the flag and what is wrong, and no value.
func TestSecretSourceErrors(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "missing.secret")
	for _, c := range []struct {
		cmd, value, env, want string
	}{
		{"run", "vault=token=abc123", "", `--secret-source: unknown source type "vault": want one of file, mock, url`},
		{"run", "mock=token", "", `--secret-source: mock: item 1 has no "=": want NAME=VALUE`},
		{"inspect", "mock=token=abc123,abc123", "", `--secret-source: mock: item 2 has no "=": want NAME=VALUE`},
		{"archive", "file=" + missing, "", "--secret-source: file: open " + missing + ": no such file or directory"},
		{"run", "url=urlTemplate=http://127.0.0.1:1/s", "", "--secret-source: url: urlTemplate must contain {key}"},
		{"run", "", "", "--secret-source: empty value: want TYPE=CONFIG"},
		{"run", "-", "vault=abc123", `K6_SECRET_SOURCE: unknown source type "vault"`},
		{"run", "mock=a=abc123", "vault=abc123", ""}, // the flag wins: the variable is not read
	} {
		args := []string{c.cmd, "-q", "--no-summary", script("config.js")}
		if c.cmd == "archive" {
			args = append(args, "-O", filepath.Join(t.TempDir(), "a.tar"))
		}
		if c.value != "-" {
			args = append(args, "--secret-source="+c.value)
		}
		var env []string
		if c.env != "" {
			env = []string{"K6_SECRET_SOURCE=" + c.env}
		}
		r := invocation{args: args, env: env}.run(t)
		if c.want == "" {
			r.wantCode(t, 0)
			continue
		}
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if r.code != 104 || len(lines) != 1 || !strings.HasPrefix(lines[0], "ERRO "+c.want) {
			t.Errorf("%s --secret-source=%q: exit %d and stderr\n%s\nwant 104 and one line starting with %q", c.cmd, c.value, r.code, r.stderr, "ERRO "+c.want)
		}
		if strings.Contains(r.stderr, "abc123") {
			t.Errorf("%s --secret-source=%q: the error shows the value: %s", c.cmd, c.value, r.stderr)
		}
	}
}

// TestSecretSourceNotArchived archives a script that reads a secret in its
// init context, with the K6_SECRET_SOURCE* variables in the environment it
// stores: the archive holds neither them nor the value, and runs again
// with the flag.
func TestSecretSourceNotArchived(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tar := filepath.Join(dir, "test.tar")
	r := invocation{args: []string{"archive", "--include-system-env-vars", "-O", tar, script("secrets/file.js")},
		env: []string{"K6_SECRET_SOURCE=mock=name=vault,cool=abc123",
			"K6_SECRET_SOURCE_URL_HEADER_AUTHORIZATION=Bearer abc123"}}.run(t)
	r.wantCode(t, 0)
	b, err := os.ReadFile(tar)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"K6_SECRET_SOURCE", "abc123"} {
		if strings.Contains(string(b), s) {
			t.Errorf("the archive holds %q", s)
		}
	}
	summary := filepath.Join(dir, "summary.json")
	r = run(t, "run", "-q", "--summary-export", summary, "--secret-source", "file=name=vault,filename="+script("secrets/file.secret"),
		"--secret-source", "mock=default,cool=from mock", tar)
	r.wantCode(t, 0)
	wantChecksPassed(t, summary, 4)
}
