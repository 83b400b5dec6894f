package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
	"github.com/usefullatency/usefullatency/docs"
)

// commandTopics maps every command to the manual page that documents it;
// the order is the usage's.
var commandTopics = []struct{ command, topic string }{
	{"run", "cli"}, {"inspect", "cli"}, {"archive", "cli"},
	{"merge", "distributed"}, {"aggregate", "distributed"}, {"scale", "distributed"}, {"compare", "comparing"},
	{"search", "searching"}, {"mock", "mock"}, {"version", "cli"},
}

// helpCmd implements `usefullatency help [topic|command]`: with no
// argument (or help, -h, --help) the usage and the manual's topics; with a topic its page's
// markdown; with a command its flags, as `<command> --help` prints them
// but on stdout. A name that is both (mock) is the page: the command's
// --help points to it. An unknown name exits 2.
func helpCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usage)
		printTopics(stdout)
		return 0
	}
	if page, ok := docs.Page(args[0]); ok {
		fmt.Fprint(stdout, page)
		return 0
	}
	if _, ok := commandTopic(args[0]); ok {
		return dispatch([]string{args[0], "--help"}, stdout, stdout)
	}
	fmt.Fprintf(stderr, "ERRO unknown help topic %q: topics are %s; commands are %s\n",
		args[0], strings.Join(topicNames(), ", "), strings.Join(commandNames(), ", "))
	return 2
}

// printTopics lists the manual's topics, one a line: name and title,
// aligned.
func printTopics(w io.Writer) {
	topics := docs.Topics()
	width := 0
	for _, t := range topics {
		width = max(width, len(t.Name))
	}
	fmt.Fprintln(w, "\nManual topics (usefullatency help <topic>):")
	for _, t := range topics {
		fmt.Fprintf(w, "  %-*s  %s\n", width, t.Name, t.Title)
	}
}

// topicNames returns the names of the manual's topics, in its order.
func topicNames() []string {
	var names []string
	for _, t := range docs.Topics() {
		names = append(names, t.Name)
	}
	return names
}

// commandNames returns the names of the commands, in the usage's order.
func commandNames() []string {
	var names []string
	for _, c := range commandTopics {
		names = append(names, c.command)
	}
	return names
}

// commandTopic returns the manual topic of command, false for no command.
func commandTopic(command string) (string, bool) {
	for _, c := range commandTopics {
		if c.command == command {
			return c.topic, true
		}
	}
	return "", false
}

// manualLine is the last line of a command's --help: where its manual page
// is, in the binary and in the repository.
func manualLine(command string) string {
	topic, _ := commandTopic(command)
	t, ok := docs.Lookup(topic)
	if !ok {
		panic("usefullatency: command " + command + " names the manual topic " + topic + ", which has no page")
	}
	return fmt.Sprintf("Manual: usefullatency help %s (%s)", t.Name, t.File)
}

// setUsage makes fs's --help print header (pflag's "Usage of <name>:"
// when empty), the flags, and the manual line of the command the flag set
// is named after, whatever name it has when the help is printed.
func setUsage(fs *pflag.FlagSet, header string) {
	fs.Usage = func() {
		out := fs.Output()
		if header == "" {
			fmt.Fprintf(out, "Usage of %s:\n", fs.Name())
		} else {
			fmt.Fprint(out, header)
		}
		fs.PrintDefaults()
		fmt.Fprintln(out, "\n"+manualLine(fs.Name()))
	}
}
