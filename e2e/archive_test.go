package e2e

import (
	"archive/tar"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// archivedProject is a test spread over files: a relative import, a file
// read with open() and through k6/data, and a remote module that requires
// its neighbour. Each of the 6 iterations adds 1 to "greeted" when every
// piece answered and __ENV.GREETING is "hi".
var archivedProject = map[string]string{
	"main.js": `
import lib from '{{LIB}}/lib/1.0.0/index.js';
import { greet } from './lib/greet.js';
import { SharedArray } from 'k6/data';
import { Counter } from 'k6/metrics';
const users = new SharedArray('users', () => JSON.parse(open('./data/users.json')));
const greeted = new Counter('greeted');
export const options = { vus: 2, iterations: 6, thresholds: { greeted: ['count==6'] } };
export default function () {
  if (greet(users[0]) === 'hi ann' && lib.label() === 'remote' && __ENV.GREETING === 'hi') greeted.add(1);
}`,
	"lib/greet.js":    "export const greet = (name) => `${__ENV.GREETING} ${name}`;",
	"data/users.json": `["ann", "bob"]`,
}

// remoteLibrary is served over TLS: a CommonJS module requiring the file
// next to it.
var remoteLibrary = map[string]string{
	"/lib/1.0.0/index.js": `const util = require('./util.js'); module.exports = { label: () => util.name };`,
	"/lib/1.0.0/util.js":  `exports.name = 'remote';`,
}

// libraryServer serves remoteLibrary on loopback over TLS and returns its
// URL and a CA file the binary trusts through SSL_CERT_FILE.
func libraryServer(t *testing.T, dir string) (*httptest.Server, string) {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if src, ok := remoteLibrary[r.URL.Path]; ok {
			_, _ = w.Write([]byte(src))
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	ca := filepath.Join(dir, "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(ca, pemBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	return srv, ca
}

// writeProject writes files under dir, replacing {{LIB}} with lib.
func writeProject(t *testing.T, dir, lib string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(src, "{{LIB}}", lib)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tarEntries lists an archive's regular files and their contents.
func tarEntries(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	out := map[string]string{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		data, _ := io.ReadAll(tr)
		out[hdr.Name] = string(data)
	}
}

// TestArchiveRunsElsewhere archives a test, deletes its files, stops the
// module server and runs the archive from another empty directory: the
// result is the one of the original run. Flags given to run override the
// archive's options.
func TestArchiveRunsElsewhere(t *testing.T) {
	t.Parallel()
	project, elsewhere, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	srv, ca := libraryServer(t, tmp)
	writeProject(t, project, srv.URL, archivedProject)
	env := []string{"SSL_CERT_FILE=" + ca, "XDG_CACHE_HOME=" + filepath.Join(tmp, "cache"), "SECRET_TOKEN=s3cr3t"}
	original := filepath.Join(tmp, "original.json")
	invocation{args: []string{"run", "-q", "-e", "GREETING=hi", "--summary-export", original, "main.js"},
		env: env, dir: project}.run(t).wantCode(t, 0)

	tarPath := filepath.Join(elsewhere, "test.js.archived.tar")
	r := invocation{args: []string{"archive", "main.js", "-e", "GREETING=hi", "-O", tarPath}, env: env, dir: project}.run(t)
	r.wantCode(t, 0)
	if r.stdout != "" {
		t.Errorf("archive wrote to stdout:\n%s", r.stdout)
	}
	entries := tarEntries(t, tarPath)
	host := strings.TrimPrefix(srv.URL, "https://")
	for _, name := range []string{
		"metadata.json", "data", "file" + filepath.ToSlash(filepath.Join(project, "lib/greet.js")),
		"file" + filepath.ToSlash(filepath.Join(project, "data/users.json")),
		"https/" + host + "/lib/1.0.0/index.js", "https/" + host + "/lib/1.0.0/util.js",
	} {
		if _, ok := entries[name]; !ok {
			t.Errorf("archive has no %s; entries: %v", name, slices.Sorted(mapsKeys(entries)))
		}
	}
	if strings.Contains(entries["metadata.json"], "s3cr3t") {
		t.Error("the process environment reached the archive without --include-system-env-vars")
	}

	srv.Close()
	if err := os.RemoveAll(project); err != nil {
		t.Fatal(err)
	}
	replayed := filepath.Join(tmp, "replayed.json")
	r = invocation{args: []string{"run", "-q", "--summary-export", replayed, "test.js.archived.tar"},
		env: []string{"XDG_CACHE_HOME=" + filepath.Join(tmp, "other-cache")}, dir: elsewhere}.run(t)
	r.wantCode(t, 0)
	for _, path := range []string{original, replayed} {
		exp := export(t, path)
		if n := number(t, exp, "metrics", "greeted", "count"); n != 6 {
			t.Errorf("%s: greeted = %v, want 6\n%s", filepath.Base(path), n, r.stderr)
		}
	}

	r = invocation{args: []string{"run", "-q", "--iterations", "3", "--summary-export", replayed, tarPath},
		env: []string{"XDG_CACHE_HOME=" + filepath.Join(tmp, "other-cache")}, dir: elsewhere}.run(t)
	r.wantCode(t, 99) // count==6 fails: the flag overrode the archive's iterations
	if n := number(t, export(t, replayed), "metrics", "greeted", "count"); n != 3 {
		t.Errorf("with --iterations 3: greeted = %v, want 3", n)
	}
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestArchiveEnvironment stores the --env values, the process environment
// only with --include-system-env-vars, and nothing with
// --exclude-env-vars; options from flags are baked into the archive.
func TestArchiveEnvironment(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeProject(t, dir, "", map[string]string{"main.js": `export default function () {}`})
	metadata := func(args ...string) map[string]any {
		t.Helper()
		out := filepath.Join(dir, "a.tar")
		r := invocation{args: append(append([]string{"archive"}, args...), "-O", out, "main.js"),
			env: []string{"SECRET_TOKEN=s3cr3t"}, dir: dir}.run(t)
		r.wantCode(t, 0)
		var m map[string]any
		if err := json.Unmarshal([]byte(tarEntries(t, out)["metadata.json"]), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := metadata("-e", "A=1", "--vus", "3", "--duration", "20s", "--tag", "team=latency")
	if env, _ := json.Marshal(m["env"]); string(env) != `{"A":"1"}` {
		t.Errorf("env = %s, want only A", env)
	}
	opts, _ := json.Marshal(m["options"])
	for _, want := range []string{`"vus":3`, `"duration":"20s"`, `"tags":{"team":"latency"}`} {
		if !strings.Contains(string(opts), want) {
			t.Errorf("options %s lack %s", opts, want)
		}
	}
	if m["filename"] != "file://"+filepath.ToSlash(filepath.Join(dir, "main.js")) || m["type"] != "js" {
		t.Errorf("filename %v type %v", m["filename"], m["type"])
	}
	if env := object(t, metadata("--include-system-env-vars"), "env"); env["SECRET_TOKEN"] != "s3cr3t" {
		t.Errorf("--include-system-env-vars: env lacks the process environment")
	}
	if env := metadata("-e", "A=1", "--exclude-env-vars")["env"]; env != nil {
		t.Errorf("--exclude-env-vars: env = %v, want null", env)
	}
}

// requirementsScript has three scenarios that overlap: a ramp holding 10
// VUs from 0 to 36 s (its last VUs stop at 31–40 s, kept 5 s more by
// gracefulRampDown), arrivals holding up to 20 from 30 s to 100 s
// (duration 1m + gracefulStop 10s), and 3 VUs from 95 s to 105 s. So
// 30 VUs at once over 30–36 s, and the test ends at 105 s.
const requirementsScript = `
export const options = {
  unknownOption: true,
  thresholds: { checks: ['rate>0.9', { threshold: 'rate>0.5', abortOnFail: true }] },
  scenarios: {
    ramp: { executor: 'ramping-vus', startVUs: 0, gracefulRampDown: '5s',
      stages: [{ duration: '10s', target: 10 }, { duration: '20s', target: 10 }, { duration: '10s', target: 0 }] },
    arrivals: { executor: 'constant-arrival-rate', rate: 10, duration: '1m',
      preAllocatedVUs: 5, maxVUs: 20, startTime: '30s', gracefulStop: '10s' },
    tail: { executor: 'per-vu-iterations', vus: 3, maxDuration: '10s', gracefulStop: '0s', startTime: '95s' },
  },
};
export default function () {}`

// TestInspectExecutionRequirements prints one JSON document on stdout,
// for a script and for its archive, with totalDuration and maxVUs as
// computed by hand; the warning goes to stderr.
func TestInspectExecutionRequirements(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeProject(t, dir, "", map[string]string{"test.js": requirementsScript})
	invocation{args: []string{"archive", "test.js", "-O", "test.tar"}, dir: dir}.run(t).wantCode(t, 0)
	for _, target := range []string{"test.js", "test.tar"} {
		r := invocation{args: []string{"inspect", "--execution-requirements", target}, dir: dir, env: defaultLogFormat}.run(t)
		r.wantCode(t, 0)
		var got struct {
			TotalDuration string         `json:"totalDuration"`
			MaxVUs        int64          `json:"maxVUs"`
			Scenarios     map[string]any `json:"scenarios"`
			Thresholds    map[string]any `json:"thresholds"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Fatalf("%s: stdout is not one JSON document: %v\n%s", target, err, r.stdout)
		}
		d, err := time.ParseDuration(got.TotalDuration)
		if err != nil || d != 105*time.Second || got.MaxVUs != 30 {
			t.Errorf("%s: totalDuration %q maxVUs %d, want 1m45s and 30", target, got.TotalDuration, got.MaxVUs)
		}
		if len(got.Scenarios) != 3 || len(got.Thresholds["checks"].([]any)) != 2 {
			t.Errorf("%s: scenarios %v thresholds %v", target, got.Scenarios, got.Thresholds)
		}
		if target == "test.js" && !regexp.MustCompile(`level=warning msg=".*unknownOption`).MatchString(r.stderr) {
			t.Errorf("%s: no warning about unknownOption on stderr:\n%s", target, r.stderr)
		}
	}
}

// TestInspectErrorsForOperator: a test that cannot load exits non-zero
// with nothing on stdout and an error line k6-operator's initializer
// recognizes (grep 'level.*error') on stderr.
func TestInspectErrorsForOperator(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeProject(t, dir, "", map[string]string{
		"syntax.js":  `export default function () {`,
		"options.js": `export const options = { scenarios: { s: { executor: 'constant-vus', vus: -1, duration: '1s' } } }; export default function () {}`,
		"throws.js":  `throw new Error('no config'); export default function () {}`,
		"broken.tar": "not a tar, not a script {",
	})
	levelError := regexp.MustCompile(`(?m)^.*level.*error.*$`)
	for _, target := range []string{"syntax.js", "options.js", "throws.js", "missing.js", "broken.tar"} {
		r := invocation{args: []string{"inspect", "--execution-requirements", target}, dir: dir, env: defaultLogFormat}.run(t)
		if r.code == 0 || r.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want non-zero and nothing", target, r.code, r.stdout)
		}
		line := levelError.FindString(r.stderr)
		if line == "" || !strings.Contains(line, "level=error msg=") {
			t.Errorf("%s: no level=error line on stderr:\n%s", target, r.stderr)
		}
	}
}

// initializer is k6-operator's initializer program (pkg/resources/jobs,
// .spec.args form) in shape: archive, inspect with stderr kept aside,
// fail on a failed command or an error line; $1 is the archive, the rest
// the archive command.
const initializer = `if ! command -v k6 >/dev/null 2>&1; then
  echo 'no k6' >&2
  exit 127
fi
logs="${TMPDIR:-/tmp}/k6logs-$$"
archive="$1"
shift
if ! mkdir -p "$(dirname "${archive}")"; then
  exit 1
fi
if ! "$@" 2> "${logs}"; then
  cat "${logs}"
  exit 1
fi
if ! k6 inspect --execution-requirements "${archive}" 2> "${logs}"; then
  cat "${logs}"
  exit 1
fi
if grep 'level.*error' "${logs}"; then
  exit 1
fi`

// TestOperatorInitializer runs the initializer's shell program with the
// binary on PATH as k6: its output is the inspect JSON the operator
// parses, or an error and exit 1 for a broken script.
func TestOperatorInitializer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(binary, filepath.Join(bin, "k6")); err != nil {
		t.Fatal(err)
	}
	writeProject(t, dir, "", map[string]string{
		"test/test.js": requirementsScript,
		"test/bad.js":  `export default function () {`,
	})
	env := append([]string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "TMPDIR=" + dir}, defaultLogFormat...)
	initialize := func(script string, args ...string) result {
		archive := filepath.Join(dir, "tmp", script+".archived.tar")
		cmd := append([]string{"-c", initializer, "sh", archive,
			"k6", "archive", filepath.Join(dir, "test", script), "-e", "TEST_VUS=5", "-O", archive}, args...)
		return invocation{args: cmd, env: env, dir: dir}.runProgram(t, "sh")
	}
	r := initialize("test.js", "--tag", "testid=1", "--no-thresholds")
	r.wantCode(t, 0)
	var got struct {
		TotalDuration string         `json:"totalDuration"`
		MaxVUs        int64          `json:"maxVUs"`
		Thresholds    map[string]any `json:"thresholds"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("initializer output is not one JSON document: %v\n%s", err, r.stdout)
	}
	if d, err := time.ParseDuration(got.TotalDuration); err != nil || d != 105*time.Second || got.MaxVUs != 30 {
		t.Errorf("totalDuration %q maxVUs %d, want 1m45s and 30", got.TotalDuration, got.MaxVUs)
	}
	r = initialize("bad.js")
	r.wantCode(t, 1)
	if !strings.Contains(r.stdout, "level=error") {
		t.Errorf("broken script: the initializer printed no error:\n%s", r.stdout)
	}
}

// runProgram runs program (looked up on PATH) instead of the binary, with
// the invocation's arguments, environment and directory.
func (inv invocation) runProgram(t *testing.T, program string) result {
	t.Helper()
	path, err := exec.LookPath(program)
	if err != nil {
		t.Skipf("%s: %v", program, err)
	}
	cmd, stdout, stderr := inv.command(t)
	cmd.Path, cmd.Args[0] = path, program
	start := time.Now()
	err = cmd.Run()
	return finish(t, cmd, err, start, stdout, stderr)
}

// k6Metadata is metadata.json shaped as k6 writes it: every option
// present, unset ones null, and fields this program does not write.
const k6Metadata = `{
  "type": "js",
  "options": {"paused": null, "scenarios": null, "executionSegment": null, "vus": 2,
    "duration": null, "iterations": 4, "stages": null, "thresholds": {"checks": ["rate==1"]},
    "tags": null, "summaryTrendStats": null, "setupTimeout": null, "throw": null},
  "filename": "file:///home/nobody/tests/main.js",
  "pwd": "file:///home/nobody/tests/",
  "env": {"WORD": "archived"},
  "compatibilityMode": "extended",
  "k6version": "1.0.0",
  "goos": "linux",
  "dependencies": {}
}`

// TestRunK6ShapedArchive runs an archive laid out as k6 writes one:
// directory entries, the main script as a hard link to data, null options.
func TestRunK6ShapedArchive(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "k6.tar")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(f)
	add := func(name, data string, typ byte) {
		hdr := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: typ}
		if typ == tar.TypeLink {
			hdr.Size, hdr.Linkname = 0, "data"
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		_, _ = tw.Write([]byte(data))
	}
	add("metadata.json", k6Metadata, tar.TypeReg)
	add("data", `import { check } from 'k6'; import { word } from './lib/word.js';
const users = open('../data/users.txt').trim().split('\n');
export default function () { check(word, { archived: (w) => w === __ENV.WORD && users.length === 2 }); }`, tar.TypeReg)
	add("file/home", "", tar.TypeDir)
	add("file/home/nobody/tests/lib", "", tar.TypeDir)
	add("file/home/nobody/tests/main.js", "", tar.TypeLink)
	add("file/home/nobody/tests/lib/word.js", `export const word = 'archived';`, tar.TypeReg)
	add("file/home/nobody/data/users.txt", "ann\nbob\n", tar.TypeReg)
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	out := filepath.Join(dir, "export.json")
	r := invocation{args: []string{"run", "-q", "--summary-export", out, path}, dir: dir}.run(t)
	r.wantCode(t, 0)
	exp := export(t, out)
	if p, n := number(t, exp, "metrics", "checks", "passes"), number(t, exp, "metrics", "iterations", "count"); p != 4 || n != 4 {
		t.Errorf("checks passed %v, iterations %v; want 4 and 4\n%s", p, n, r.stderr)
	}
}
