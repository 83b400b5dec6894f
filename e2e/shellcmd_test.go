package e2e

import (
	"path"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// Patterns of the flag and shell helpers.
var (
	// longFlagRef matches a long flag named in text: "--", a lowercase
	// letter or digit, then letters, digits, hyphens, dots and underscores
	// (other programs' flags have them: --web.enable-remote-write-receiver,
	// --include_imports), after no letter, digit or hyphen (so not "a--b"
	// nor the "---" of a slug).
	longFlagRef = regexp.MustCompile(`(?:^|[^\w-])(--[a-z0-9][a-z0-9._-]*)`)
	// absoluteURL matches a URL, whose "--" are no flags.
	absoluteURL = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://\S*`)
	// envAssignment matches a VAR=value word before a command.
	envAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
)

// longFlags returns the long flags named in text, in order, without a
// value ("--out=json" is "--out") or a sentence's final dot.
func longFlags(text string) []string {
	var flags []string
	for _, m := range longFlagRef.FindAllStringSubmatch(absoluteURL.ReplaceAllString(text, " "), -1) {
		flags = append(flags, strings.TrimRight(m[1], ".-"))
	}
	return flags
}

// shellLines returns the command lines of a shell code block: a line
// ending in a backslash is joined with the next, and a "$ " prompt is
// removed. Each line has the number of its first line in the file.
func shellLines(b codeBlock) []numberedLine {
	var cmds []numberedLine
	var cur *numberedLine
	for _, l := range b.lines {
		text := l.text
		if cur == nil {
			cmds = append(cmds, numberedLine{l.num, ""})
			cur = &cmds[len(cmds)-1]
			text = strings.TrimPrefix(strings.TrimLeft(text, " \t"), "$ ")
		}
		trimmed := strings.TrimRight(text, " \t")
		joined, continued := strings.CutSuffix(trimmed, "\\")
		cur.text += joined
		if !continued {
			cur = nil
			continue
		}
		cur.text += " "
	}
	return cmds
}

// toolCall is one invocation of the binary on a shell line: its command
// ("" for none, as in "usefullatency --version") and its long flags.
type toolCall struct {
	command string
	flags   []string
}

// parseShellLine finds the invocations of the binary on a shell command
// line. Every other part of the line (a comment, and the commands before
// or after a |, ||, &&, ; or &) is returned as rest.
func parseShellLine(line string) (calls []toolCall, rest string) {
	code, comment := cutComment(line)
	others := []string{comment}
	for _, seg := range splitCommands(code) {
		if call, ok := toolInvocation(shellWords(seg)); ok {
			calls = append(calls, call)
			continue
		}
		others = append(others, seg)
	}
	return calls, strings.TrimSpace(strings.Join(others, " "))
}

// quoteState follows single and double quotes and backslash escapes
// through a shell line, one byte at a time.
type quoteState struct {
	quote   byte // the open quote, 0 for none
	escaped bool // the previous byte was an unquoted or double-quoted backslash
}

// step takes byte c and reports whether it is unquoted shell syntax.
func (q *quoteState) step(c byte) (unquoted bool) {
	switch {
	case q.escaped:
		q.escaped = false
		return false
	case c == '\\' && q.quote != '\'':
		q.escaped = true
		return false
	case q.quote != 0:
		if c == q.quote {
			q.quote = 0
		}
		return false
	case c == '\'' || c == '"':
		q.quote = c
		return false
	}
	return true
}

// cutComment splits line at its first unquoted "#" that starts a word.
func cutComment(line string) (code, comment string) {
	var q quoteState
	for i := 0; i < len(line); i++ {
		if q.step(line[i]) && line[i] == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return line[:i], line[i:]
		}
	}
	return line, ""
}

// splitCommands splits a line at its unquoted |, ||, &&, ; and & (but not
// the & of a redirection: 2>&1, &>file).
func splitCommands(line string) []string {
	var cmds []string
	var q quoteState
	start := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		if !q.step(c) || !isCommandSeparator(line, i) {
			continue
		}
		cmds = append(cmds, line[start:i])
		if i+1 < len(line) && line[i+1] == c && c != ';' {
			i++ // || or &&
		}
		start = i + 1
	}
	return append(cmds, line[start:])
}

// isCommandSeparator reports whether line[i] is |, ; or an & that is no
// part of a redirection.
func isCommandSeparator(line string, i int) bool {
	switch line[i] {
	case '|', ';':
		return true
	case '&':
		redirect := (i > 0 && (line[i-1] == '>' || line[i-1] == '<')) || (i+1 < len(line) && line[i+1] == '>')
		return !redirect
	}
	return false
}

// shellWords splits a command into words as the shell would, removing
// quotes and backslash escapes (no expansion).
func shellWords(cmd string) []string {
	var words []string
	var w shellWord
	for i := 0; i < len(cmd); i++ {
		if w.add(cmd, i) {
			words = append(words, w.text.String())
			w = shellWord{}
		}
	}
	if w.started {
		words = append(words, w.text.String())
	}
	return words
}

// shellWord is a word being read by shellWords.
type shellWord struct {
	text    strings.Builder
	started bool
	quote   byte // the open quote, 0 for none
	escaped bool // the previous byte was an escaping backslash
}

// add reads cmd[i] into the word and reports whether it ended a started
// word (an unquoted blank after it).
func (w *shellWord) add(cmd string, i int) (ended bool) {
	c := cmd[i]
	switch {
	case w.escaped:
		w.escaped = false
		w.text.WriteByte(c)
	case c == '\\' && w.quote == 0:
		w.escaped = true
	case c == '\\' && w.quote == '"' && i+1 < len(cmd) && strings.IndexByte("$`\"\\", cmd[i+1]) >= 0:
		w.escaped = true
	case w.quote != 0 && c == w.quote:
		w.quote = 0
	case w.quote != 0:
		w.text.WriteByte(c)
	case c == '\'' || c == '"':
		w.quote = c
	case c == ' ' || c == '\t':
		return w.started
	default:
		w.text.WriteByte(c)
	}
	w.started = true
	return false
}

// commandPrefixes are words that run the command after them.
var commandPrefixes = map[string]bool{"time": true, "exec": true, "nohup": true, "sudo": true}

// toolInvocation reports whether words invoke the binary, by a path whose
// last element is "usefullatency" or "k6" (the binary installed as k6),
// after any VAR=value assignments, and returns the call. The command is
// the word after the binary unless that is a flag.
func toolInvocation(words []string) (toolCall, bool) {
	for len(words) > 0 && (envAssignment.MatchString(words[0]) || commandPrefixes[words[0]]) {
		words = words[1:]
	}
	if len(words) == 0 || (path.Base(words[0]) != "usefullatency" && path.Base(words[0]) != "k6") {
		return toolCall{}, false
	}
	args := words[1:]
	var call toolCall
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		call.command, args = args[0], args[1:]
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--") {
			name, _, _ := strings.Cut(a, "=")
			call.flags = append(call.flags, name)
		}
	}
	return call, true
}

func TestMarkdownLongFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string
	}{
		{"use `--summary-export FILE` or --out=json.", []string{"--summary-export", "--out"}},
		{"ends a sentence with --no-color.", []string{"--no-color"}},
		{"prometheus --web.enable-remote-write-receiver --config.file=p.yml", []string{"--web.enable-remote-write-receiver", "--config.file"}},
		{"protoc --include_imports --descriptor_set_out", []string{"--include_imports", "--descriptor_set_out"}},
		{"| `-u, --vus N` |", []string{"--vus"}},
		{"(--vus)", []string{"--vus"}},
		{"a -- b, i--, x--y, | --- |, -->", nil},
		{"[x](#html-report--o-htmlfile---report-file)", nil},
		{"see https://k6.io/docs/#--vus and http://a/--b", nil},
		{"--Upper and -v", nil},
	}
	for _, tt := range tests {
		if got := longFlags(tt.text); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("longFlags(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestMarkdownShellLines(t *testing.T) {
	t.Parallel()
	b := parseMarkdown("```sh\n$ usefullatency run \\\n    --vus 2 \\\n    a.js\nmake\n\n```").blocks[0]
	want := []numberedLine{{2, "usefullatency run      --vus 2      a.js"}, {5, "make"}, {6, ""}}
	if got := shellLines(b); !reflect.DeepEqual(got, want) {
		t.Errorf("shellLines = %+v, want %+v", got, want)
	}
}

func TestMarkdownShellWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cmd  string
		want []string
	}{
		{"a  b\tc", []string{"a", "b", "c"}},
		{`-e 'A=x y' "B=\"q\"" C\ D`, []string{"-e", "A=x y", `B="q"`, "C D"}},
		{`'' "a\b"`, []string{"", `a\b`}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := shellWords(tt.cmd); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("shellWords(%q) = %q, want %q", tt.cmd, got, tt.want)
		}
	}
}

func TestMarkdownParseShellLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		line  string
		calls []toolCall
		rest  string
	}{
		{"command and flags", "bin/usefullatency run --mock -e X=1 --out=json a.js",
			[]toolCall{{"run", []string{"--mock", "--out"}}}, ""},
		{"env assignments first", "K6_VUS=2 FOO='a b' usefullatency merge --summary-export s.json r1.res",
			[]toolCall{{"merge", []string{"--summary-export"}}}, ""},
		{"installed as k6", "k6 inspect --execution-requirements t.tar", []toolCall{{"inspect", []string{"--execution-requirements"}}}, ""},
		{"no command", "usefullatency --version", []toolCall{{"", []string{"--version"}}}, ""},
		{"comment is rest", "usefullatency run a.js   # or --vus 2", []toolCall{{"run", nil}}, "# or --vus 2"},
		{"hash inside a word is no comment", "usefullatency run -e A=b#c --quiet a.js", []toolCall{{"run", []string{"--quiet"}}}, ""},
		{"quoted hash is no comment", "usefullatency run -e 'A= #x' --quiet a.js", []toolCall{{"run", []string{"--quiet"}}}, ""},
		{"pipe into another program", "usefullatency inspect a.js | jq --raw-output .vus", []toolCall{{"inspect", nil}}, "jq --raw-output .vus"},
		{"and-then", "make build && bin/usefullatency run --quiet a.js", []toolCall{{"run", []string{"--quiet"}}}, "make build"},
		{"background and redirections", "usefullatency aggregate --runners 3 2>&1 &> log & usefullatency run --vus 1 a.js",
			[]toolCall{{"aggregate", []string{"--runners"}}, {"run", []string{"--vus"}}}, ""},
		{"quoted pipe", `usefullatency run -e 'A=a|b' --quiet a.js`, []toolCall{{"run", []string{"--quiet"}}}, ""},
		{"time prefix", "time usefullatency run --quiet a.js", []toolCall{{"run", []string{"--quiet"}}}, ""},
		{"double dash ends the flags", "usefullatency run a.js -- --not-a-flag", []toolCall{{"run", nil}}, ""},
		{"the binary as an argument is no call", "ln -s bin/usefullatency k6 --force", nil, "ln -s bin/usefullatency k6 --force"},
		{"docker image name is no call", "docker run usefullatency:dev run --mock", nil, "docker run usefullatency:dev run --mock"},
		{"other program only", "prometheus --config.file=p.yml", nil, "prometheus --config.file=p.yml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			calls, rest := parseShellLine(tt.line)
			if !reflect.DeepEqual(calls, tt.calls) {
				t.Errorf("calls = %+v, want %+v", calls, tt.calls)
			}
			if rest != tt.rest {
				t.Errorf("rest = %q, want %q", rest, tt.rest)
			}
		})
	}
}
