package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/docs"
)

// invoke runs dispatch on args and returns its exit code, stdout and stderr.
func invoke(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = dispatch(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestHelpListsEveryTopic checks that help, -h and --help print the usage,
// then each topic of the manual on its own line with its summary.
func TestHelpListsEveryTopic(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"help", "--help"}} {
		code, stdout, stderr := invoke(args...)
		if code != 0 || stderr != "" {
			t.Errorf("%v: exit %d, stderr %q; want 0 and nothing", args, code, stderr)
		}
		rest, ok := strings.CutPrefix(stdout, usage)
		if !ok {
			t.Errorf("%v: the output does not start with the usage:\n%s", args, stdout)
			continue
		}
		lines := strings.Split(rest, "\n")
		for _, tp := range docs.Topics() {
			i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "  "+tp.Name+" ") })
			if i < 0 || !strings.HasSuffix(lines[i], "  "+tp.Title) {
				t.Errorf("%v: no line %q … %q in:\n%s", args, tp.Name, tp.Title, rest)
			}
		}
	}
}

// TestHelpTitlesAligned checks that the titles of the topic list
// start in one column.
func TestHelpTitlesAligned(t *testing.T) {
	_, stdout, _ := invoke("help")
	column := -1
	for _, tp := range docs.Topics() {
		for line := range strings.Lines(stdout) {
			if !strings.HasPrefix(line, "  "+tp.Name+" ") {
				continue
			}
			at := strings.Index(line, tp.Title)
			if column >= 0 && at != column {
				t.Errorf("title of %s starts at column %d, others at %d", tp.Name, at, column)
			}
			column = at
		}
	}
}

func TestUsageNamesTheManual(t *testing.T) {
	if !strings.Contains(usage, "\nManual: usefullatency help <topic>; docs/ in the repository.\n") {
		t.Errorf("the usage does not name the manual:\n%s", usage)
	}
}

// TestHelpTopicPrintsPage checks that help <topic> prints the page's
// markdown, by its topic name or its file.
func TestHelpTopicPrintsPage(t *testing.T) {
	page, ok := docs.Page("probe")
	if !ok {
		t.Fatal("the manual has no probe page")
	}
	probe, _ := docs.Lookup("probe")
	for _, name := range []string{"probe", "probe.md", "docs/probe.md"} {
		code, stdout, stderr := invoke("help", name)
		if code != 0 || stderr != "" {
			t.Errorf("help %s: exit %d, stderr %q; want 0 and nothing", name, code, stderr)
		}
		if stdout != page || !strings.HasPrefix(stdout, "# ") {
			t.Errorf("help %s printed %.80q…, want the page docs/probe.md", name, stdout)
		}
		if title, _, _ := strings.Cut(stdout, "\n"); !strings.Contains(strings.ReplaceAll(title, "`", ""), probe.Title) {
			t.Errorf("help %s starts with %q, want the title %q", name, title, probe.Title)
		}
	}
}

// TestHelpCommandPrintsFlags checks that help <command> prints on stdout
// what <command> --help prints on stderr: run's flags include --vus.
func TestHelpCommandPrintsFlags(t *testing.T) {
	code, stdout, stderr := invoke("help", "run")
	if code != 0 || stderr != "" {
		t.Errorf("help run: exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
	if !strings.HasPrefix(stdout, "Usage of run:\n") || !strings.Contains(stdout, "--vus int") {
		t.Errorf("help run printed no flags of run:\n%s", stdout)
	}
	for _, c := range commandTopics {
		if _, isTopic := docs.Lookup(c.command); isTopic {
			continue // help mock is the page
		}
		_, help, _ := invoke("help", c.command)
		_, _, flagHelp := invoke(c.command, "--help")
		if help != flagHelp || help == "" {
			t.Errorf("help %s printed:\n%s\nwant what %s --help prints:\n%s", c.command, help, c.command, flagHelp)
		}
	}
}

// TestCommandHelpEndsWithManualLine checks that every command's --help
// ends with the line naming its page of the manual, a page that exists.
func TestCommandHelpEndsWithManualLine(t *testing.T) {
	want := map[string]string{
		"run": "cli", "inspect": "cli", "archive": "cli", "version": "cli",
		"merge": "distributed", "aggregate": "distributed", "scale": "distributed", "compare": "comparing", "search": "searching", "mock": "mock",
	}
	if len(want) != len(commandTopics) {
		t.Fatalf("the test knows %d commands, commandTopics %d", len(want), len(commandTopics))
	}
	for command, topic := range want {
		for _, flag := range []string{"--help", "-h"} {
			code, stdout, stderr := invoke(command, flag)
			if code != 0 || stdout != "" {
				t.Errorf("%s %s: exit %d, stdout %q; want 0 and the help on stderr", command, flag, code, stdout)
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			last := lines[len(lines)-1]
			line := "Manual: usefullatency help " + topic + " (docs/" + topic + ".md)"
			if last != line {
				t.Errorf("%s %s ends with %q, want %q", command, flag, last, line)
			}
			if _, ok := docs.Lookup(topic); !ok || len(lines) < 3 {
				t.Errorf("%s %s: topic %q is no page of the manual, or the help is only %d lines", command, flag, topic, len(lines))
			}
		}
	}
}

// TestHelpUnknownTopic checks that an unknown topic exits 2 with one
// error line that lists the topics.
func TestHelpUnknownTopic(t *testing.T) {
	code, stdout, stderr := invoke("help", "no-such-topic")
	if code != 2 || stdout != "" {
		t.Errorf("help no-such-topic: exit %d, stdout %q; want 2 and nothing", code, stdout)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, `ERRO unknown help topic "no-such-topic": topics are `) {
		t.Errorf("stderr = %q, want one ERRO line", stderr)
	}
	_, list, _ := strings.Cut(stderr, "topics are ")
	list, _, _ = strings.Cut(list, ";")
	var want []string
	for _, tp := range docs.Topics() {
		want = append(want, tp.Name)
	}
	if got := strings.Split(list, ", "); !slices.Equal(got, want) {
		t.Errorf("the error line lists the topics %q, want %q", got, want)
	}
}
