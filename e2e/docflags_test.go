package e2e

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// otherPrograms are the long flags the manual names that belong to other
// programs than usefullatency, each with the program it belongs to. A
// flag the manual gives to usefullatency does
// not belong here: the binary must have it.
var otherPrograms = map[string]string{
	"--dry-run":                          "scripts/deps",
	"--include_imports":                  "protoc",
	"--descriptor_set_out":               "protoc",
	"--web.enable-remote-write-receiver": "prometheus",
	"--config.file":                      "prometheus",
	"--rm":                               "docker run",
}

// helpedCommands are the commands whose "--help" lists their flags.
var helpedCommands = []string{"run", "inspect", "archive", "merge", "aggregate", "scale", "compare", "search", "mock"}

// flagDefinition matches a flag's line in a command's help, "  -o, --out
// stringArray   …" or "      --no-color   …", and captures the long flag.
var flagDefinition = regexp.MustCompile(`(?m)^[ \t]+(?:-[A-Za-z0-9], )?(--[a-z0-9][a-z0-9-]*)`)

// definedFlags returns the long flags a help text defines.
func definedFlags(help string) map[string]bool {
	flags := map[string]bool{}
	for _, m := range flagDefinition.FindAllStringSubmatch(help, -1) {
		flags[m[1]] = true
	}
	return flags
}

// commandFlags runs "--help" of every command of the binary and returns
// the long flags each accepts, by command; "" is the binary without a
// command, which takes --help and --version, and so do "version" and
// "help". Every help must exit 0 and list flags.
func commandFlags(t *testing.T) map[string]map[string]bool {
	t.Helper()
	byCommand := map[string]map[string]bool{}
	for _, cmd := range helpedCommands {
		r := run(t, cmd, "--help")
		r.wantCode(t, 0)
		flags := definedFlags(r.stdout + r.stderr)
		if len(flags) == 0 {
			t.Fatalf("%s --help lists no flags:\n%s%s", cmd, r.stdout, r.stderr)
		}
		flags["--help"] = true
		byCommand[cmd] = flags
	}
	run(t, "--help").wantCode(t, 0)
	version := run(t, "--version")
	version.wantCode(t, 0)
	if !strings.HasPrefix(version.stdout, "usefullatency ") {
		t.Fatalf("--version printed %q, want the version", version.stdout)
	}
	top := map[string]bool{"--help": true, "--version": true}
	byCommand[""], byCommand["version"], byCommand["help"] = top, top, top
	return byCommand
}

// allFlags returns every flag of every command.
func allFlags(byCommand map[string]map[string]bool) map[string]bool {
	all := map[string]bool{}
	for _, flags := range byCommand {
		for f := range flags {
			all[f] = true
		}
	}
	return all
}

// isShell reports whether a code block's language is a shell's; a block
// without one is taken for shell too.
func isShell(lang string) bool {
	switch lang {
	case "", "sh", "bash", "shell", "console", "zsh":
		return true
	}
	return false
}

// isProgram reports whether a code block is in a programming language
// where "--" is an operator (i--), so names no flag.
func isProgram(lang string) bool {
	switch lang {
	case "js", "javascript", "ts", "typescript", "go":
		return true
	}
	return false
}

// flagChecker collects the manual's flags the binary lacks.
type flagChecker struct {
	byCommand map[string]map[string]bool
	all       map[string]bool
	problems  []docProblem
	// used are the otherPrograms entries the manual names.
	used map[string]bool
	// calls and mentions count the invocations of the binary and the
	// other flags checked, so an extraction that finds none fails.
	calls, mentions int
}

// problem records a problem at file:line.
func (c *flagChecker) problem(file string, line int, format string, args ...any) {
	c.problems = append(c.problems, docProblem{file, line, fmt.Sprintf(format, args...)})
}

// checkMentions checks that every long flag named in text is one of some
// command of the binary, or another program's in otherPrograms.
func (c *flagChecker) checkMentions(file string, line int, text string) {
	for _, f := range longFlags(text) {
		c.mentions++
		if otherPrograms[f] != "" {
			c.used[f] = true
		}
		if !c.all[f] && otherPrograms[f] == "" {
			c.problem(file, line, "%s: no command of the binary has this flag (not in any --help; another program's flag goes into otherPrograms)", f)
		}
	}
}

// checkShellLine checks each invocation of the binary on a shell line
// against its command's help, and the rest of the line as mentions.
func (c *flagChecker) checkShellLine(file string, l numberedLine) {
	calls, rest := parseShellLine(l.text)
	for _, call := range calls {
		c.calls++
		flags, known := c.byCommand[call.command]
		if !known {
			c.problem(file, l.num, "the binary has no command %q", call.command)
			continue
		}
		for _, f := range call.flags {
			if !flags[f] {
				c.problem(file, l.num, "%s: not in `usefullatency %s --help`", f, call.command)
			}
		}
	}
	c.checkMentions(file, l.num, rest)
}

// checkFile checks the flags of one markdown file: prose, shell blocks
// and other blocks but program code.
func (c *flagChecker) checkFile(f markdownFile) {
	for _, l := range f.doc.prose {
		c.checkMentions(f.rel, l.num, l.text)
	}
	for _, b := range f.doc.blocks {
		switch lang := b.lang(); {
		case isShell(lang):
			for _, l := range shellLines(b) {
				c.checkShellLine(f.rel, l)
			}
		case !isProgram(lang):
			for _, l := range b.lines {
				c.checkMentions(f.rel, l.num, l.text)
			}
		}
	}
}

// TestDocsFlags checks that every long flag the manual names exists: a
// flag of a shell line that invokes the binary in its command's help, any
// other in some command's help or in otherPrograms.
func TestDocsFlags(t *testing.T) {
	t.Parallel()
	byCommand := commandFlags(t)
	c := flagChecker{byCommand: byCommand, all: allFlags(byCommand), used: map[string]bool{}}
	for _, f := range manualFiles(allMarkdown(t, repoRoot())) {
		c.checkFile(f)
	}
	if c.calls == 0 || c.mentions == 0 {
		t.Errorf("checked %d invocations of the binary in shell blocks and %d other flags: the extraction is broken", c.calls, c.mentions)
	}
	for f, program := range otherPrograms {
		if !c.used[f] {
			t.Errorf("otherPrograms lists %s (%s), which the manual no longer names: remove it", f, program)
		}
	}
	reportProblems(t, "flags the binary lacks", c.problems)
}

func TestMarkdownDefinedFlags(t *testing.T) {
	t.Parallel()
	help := `Usage of run:
  -a, --address string     serve k6's REST API; see --not-defined-here
      --http-debug string[="headers"]   log HTTP; --http-debug=full includes bodies
      --no-color           no colours
  -O, --archive-out string archive file
Flags:
  -e, --env stringArray    KEY=VALUE
usefullatency mock [--addr host:port]
`
	want := map[string]bool{"--address": true, "--http-debug": true, "--no-color": true, "--archive-out": true, "--env": true}
	if got := definedFlags(help); !reflect.DeepEqual(got, want) {
		t.Errorf("definedFlags = %v, want %v", got, want)
	}
}

func TestMarkdownFlagChecker(t *testing.T) {
	t.Parallel()
	byCommand := map[string]map[string]bool{
		"run":   {"--vus": true, "--help": true},
		"merge": {"--summary-export": true, "--help": true},
		"":      {"--help": true, "--version": true},
	}
	c := flagChecker{byCommand: byCommand, all: allFlags(byCommand), used: map[string]bool{}}
	c.checkFile(markdownFile{rel: "x.md", doc: parseMarkdown(strings.Join([]string{
		"Use `--vus` and --summary-export, not --nope.", // 1: --nope
		"```sh",
		"usefullatency merge --summary-export s.json --vus 2 # --vus is run's", // 3: --vus not merge's
		"usefullatency run --vus 2 | jq --raw-output .",                        // 4: --raw-output unknown
		"usefullatency frobnicate --vus 2",                                     // 5: no such command
		"prometheus --config.file=p.yml",                                       // 6: otherPrograms
		"```",
		"```js",
		"for (let i = 10; i > 0; --i) {}", // program code: no flags
		"```",
		"```yaml",
		"args: --missing", // 12: checked as a mention
		"```",
	}, "\n"))})
	want := []docProblem{
		{"x.md", 1, "--nope"},
		{"x.md", 3, "--vus: not in `usefullatency merge --help`"},
		{"x.md", 4, "--raw-output"},
		{"x.md", 5, `the binary has no command "frobnicate"`},
		{"x.md", 12, "--missing"},
	}
	if !c.used["--config.file"] {
		t.Errorf("the use of otherPrograms' --config.file is not recorded")
	}
	if len(c.problems) != len(want) {
		t.Fatalf("problems = %+v, want %d like %+v", c.problems, len(want), want)
	}
	for i, p := range c.problems {
		if p.file != want[i].file || p.line != want[i].line || !strings.HasPrefix(p.msg, want[i].msg) {
			t.Errorf("problem %d = %+v, want %+v", i, p, want[i])
		}
	}
}
