package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// exampleSpec is what the info string of a runnable code block asks for:
// "js run files=examples/data.csv env=DURATION=2s exit=99".
type exampleSpec struct {
	// mode is "run" (run against the embedded mock) or "inspect" (the
	// example needs an outside server: only its options are resolved).
	mode string
	// ext is the script's extension, ".js" or ".ts".
	ext string
	// files are repository-relative paths copied beside the script under
	// their base names (files=a,b; repeatable).
	files []string
	// env are K=V script variables, each passed as -e K=V (env=K=V;
	// repeatable).
	env []string
	// exit is the exit code the run must have (exit=N); 0 by default.
	exit int
}

// exampleLangs maps the languages a runnable block may be in to the
// extension of its script.
var exampleLangs = map[string]string{"js": ".js", "ts": ".ts"}

// parseExampleInfo parses a code block's info string. ok is false for a
// block that is not to be run: no "run" or "inspect" after the language.
// An unknown language or attribute, or a malformed one, is an error, so a
// typo does not turn an example into a fragment that is never run.
func parseExampleInfo(info string) (spec exampleSpec, ok bool, err error) {
	fields := strings.Fields(info)
	if len(fields) < 2 || (fields[1] != "run" && fields[1] != "inspect") {
		return exampleSpec{}, false, nil
	}
	spec.mode = fields[1]
	if spec.ext = exampleLangs[fields[0]]; spec.ext == "" {
		return exampleSpec{}, true, fmt.Errorf("%q: only js and ts blocks run", info)
	}
	for _, attr := range fields[2:] {
		if err := spec.set(attr); err != nil {
			return exampleSpec{}, true, fmt.Errorf("%q: %w", info, err)
		}
	}
	return spec, true, nil
}

// set applies one key=value attribute of an info string.
func (s *exampleSpec) set(attr string) error {
	key, value, found := strings.Cut(attr, "=")
	if !found || value == "" {
		return fmt.Errorf("attribute %q is not key=value", attr)
	}
	switch key {
	case "files":
		s.files = append(s.files, strings.Split(value, ",")...)
	case "env":
		if k, _, ok := strings.Cut(value, "="); !ok || k == "" {
			return fmt.Errorf("env=%s is not env=K=V", value)
		}
		s.env = append(s.env, value)
	case "exit":
		code, err := strconv.Atoi(value)
		if err != nil {
			return fmt.Errorf("exit=%s is not a number", value)
		}
		s.exit = code
	default:
		return fmt.Errorf("unknown attribute %q (files=, env=, exit=)", key)
	}
	return nil
}

// args returns the binary's arguments for the example's script.
func (s exampleSpec) args() []string {
	args := []string{"inspect"}
	if s.mode == "run" {
		args = []string{"run", "--mock", "-q", "--no-color"}
	}
	for _, kv := range s.env {
		args = append(args, "-e", kv)
	}
	return append(args, "example"+s.ext)
}

// docExample is a runnable code block of the manual.
type docExample struct {
	file  string
	block codeBlock
	spec  exampleSpec
}

// name returns where the example is, file:line of its opening fence.
func (e docExample) name() string { return fmt.Sprintf("%s:%d", e.file, e.block.line) }

// manualExamples returns the runnable blocks of files, and a problem for
// each block whose info string does not parse.
func manualExamples(files []markdownFile) ([]docExample, []docProblem) {
	var examples []docExample
	var problems []docProblem
	for _, f := range files {
		for _, b := range f.doc.blocks {
			spec, ok, err := parseExampleInfo(b.info)
			switch {
			case err != nil:
				problems = append(problems, docProblem{f.rel, b.line, err.Error()})
			case ok:
				examples = append(examples, docExample{f.rel, b, spec})
			}
		}
	}
	return examples, problems
}

// exampleSlots bounds the examples running at once: the machines that run
// the tests have two cores.
var exampleSlots = make(chan struct{}, 2)

// TestDocsExamples runs every "js run" / "ts run" block of the manual with
// the built binary against the embedded mock, and resolves the options of
// every "js inspect" / "ts inspect" block, each in a directory of its own
// with the files it names; each must exit as its info string says.
func TestDocsExamples(t *testing.T) {
	t.Parallel()
	root := repoRoot()
	examples, problems := manualExamples(manualFiles(allMarkdown(t, root)))
	reportProblems(t, "code blocks with a bad info string", problems)
	inDocs := 0
	for _, ex := range examples {
		if strings.HasPrefix(ex.file, "docs/") {
			inDocs++
		}
	}
	if inDocs == 0 {
		t.Errorf("no runnable code block (```js run, ```js inspect, …) in docs/: the extraction is broken or the examples are gone")
	}
	for _, ex := range examples {
		t.Run(ex.name(), func(t *testing.T) {
			t.Parallel()
			exampleSlots <- struct{}{}
			defer func() { <-exampleSlots }()
			runExample(t, root, ex)
		})
	}
}

// runExample writes the example and its files to a fresh directory, runs
// the binary there and checks its exit code.
func runExample(t *testing.T, root string, ex docExample) {
	dir := t.TempDir()
	writeExampleFile(t, filepath.Join(dir, "example"+ex.spec.ext), ex.block.body())
	for _, f := range ex.spec.files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatalf("%s: files=%s: %v", ex.name(), f, err)
		}
		writeExampleFile(t, filepath.Join(dir, filepath.Base(f)), string(b))
	}
	r := invocation{args: ex.spec.args(), dir: dir}.run(t)
	if r.code != ex.spec.exit {
		t.Errorf("%s: `usefullatency %s` exited %d, want %d\nstderr:\n%s\nstdout:\n%s",
			ex.name(), strings.Join(ex.spec.args(), " "), r.code, ex.spec.exit, clipOutput(r.stderr, 3000), clipOutput(r.stdout, 1500))
	}
}

// writeExampleFile writes content to path, failing the test on an error.
func writeExampleFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// clipOutput shortens s to about max bytes, keeping its first third and its end
// (where an error usually is), valid UTF-8.
func clipOutput(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head, tail := max/3, max-max/3
	return strings.ToValidUTF8(s[:head]+"\n[… "+strconv.Itoa(len(s)-max)+" bytes cut …]\n"+s[len(s)-tail:], "")
}

func TestMarkdownExampleInfo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		info    string
		want    exampleSpec
		ok, err bool
	}{
		{"js", exampleSpec{}, false, false},
		{"js fragment", exampleSpec{}, false, false},
		{"sh run", exampleSpec{}, true, true},
		{"js run", exampleSpec{mode: "run", ext: ".js"}, true, false},
		{"ts inspect", exampleSpec{mode: "inspect", ext: ".ts"}, true, false},
		{"js run exit=99 env=A=1 env=B=x=y files=examples/a.csv,e2e/b.json files=c.txt",
			exampleSpec{mode: "run", ext: ".js", exit: 99, env: []string{"A=1", "B=x=y"}, files: []string{"examples/a.csv", "e2e/b.json", "c.txt"}}, true, false},
		{"js run exits=99", exampleSpec{}, true, true},
		{"js run exit=x", exampleSpec{}, true, true},
		{"js run env=A", exampleSpec{}, true, true},
		{"js run verbose", exampleSpec{}, true, true},
	}
	for _, tt := range tests {
		got, ok, err := parseExampleInfo(tt.info)
		if ok != tt.ok || (err != nil) != tt.err || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseExampleInfo(%q) = %+v, %v, %v; want %+v, %v, error %v", tt.info, got, ok, err, tt.want, tt.ok, tt.err)
		}
	}
}

func TestMarkdownExampleArgs(t *testing.T) {
	t.Parallel()
	runSpec := exampleSpec{mode: "run", ext: ".ts", env: []string{"A=1", "B=2"}}
	if got, want := runSpec.args(), []string{"run", "--mock", "-q", "--no-color", "-e", "A=1", "-e", "B=2", "example.ts"}; !reflect.DeepEqual(got, want) {
		t.Errorf("args = %q, want %q", got, want)
	}
	inspect := exampleSpec{mode: "inspect", ext: ".js"}
	if got, want := inspect.args(), []string{"inspect", "example.js"}; !reflect.DeepEqual(got, want) {
		t.Errorf("args = %q, want %q", got, want)
	}
}

func TestMarkdownClipOutput(t *testing.T) {
	t.Parallel()
	if got := clipOutput("short", 10); got != "short" {
		t.Errorf("clipOutput kept %q, want it unchanged", got)
	}
	long := strings.Repeat("a", 100) + strings.Repeat("z", 100) + "ERRO the end"
	got := clipOutput(long, 60)
	if !strings.HasPrefix(got, strings.Repeat("a", 20)) || !strings.HasSuffix(got, "ERRO the end") || len(got) > 100 {
		t.Errorf("clipOutput = %q, want the head, the end and at most about 60 bytes", got)
	}
}
