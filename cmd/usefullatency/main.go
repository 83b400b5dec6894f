// Command usefullatency runs k6-style test scripts and measures when
// streaming answers become useful. Subcommands: run, inspect, archive, merge, aggregate, scale, compare, search, mock, version, help.
package main

import (
	"fmt"
	"io"
	"os"

	"strings"

	// Registers k6/x/usefulsse and k6/x/sse, the way xk6 links an extension.
	_ "github.com/usefullatency/usefullatency"
	"github.com/usefullatency/usefullatency/logline"
)

func main() {
	os.Exit(mainWithIO(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usefullatency: k6-style load tests that measure when streaming answers become useful.

Usage:
  usefullatency run [flags] script.js      run a test script
  usefullatency inspect script.js          print the resolved options as JSON
                                           (--execution-requirements: plus totalDuration, maxVUs)
  usefullatency archive [flags] script.js  bundle the test into a k6-style archive (-O archive.tar)
  usefullatency merge [flags] FILE...      one summary of runners' -o result=FILE files
  usefullatency aggregate [--listen addr]  live thresholds over runners' -o aggregator=URL posts
  usefullatency scale -u N [-m M]          change the VUs of a running test (externally-controlled)
  usefullatency compare BASE... -- NEW...  what regressed between two sets of runs' result files
  usefullatency search [flags] script.js   the highest arrival rate at which every threshold holds
  usefullatency mock [--addr host:port]    serve the simulated after-sales assistant
  usefullatency version                    print the version
  usefullatency help [topic|command]       the manual's topics, a topic's page or a command's flags

Run "usefullatency run --help" for the flags of run.
Manual: usefullatency help <topic>; docs/ in the repository.
`

// mainWithIO dispatches the subcommand and returns the exit code.
func mainWithIO(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	format, err := logline.ParseFormat(logFormatArg(args), isTerminal(stderr))
	if err != nil {
		fmt.Fprintln(stderr, "ERRO "+err.Error())
		return 2
	}
	if format != logline.Text {
		lw := logline.NewWriter(stderr, format)
		defer func() { _ = lw.Flush() }()
		stderr = lw
	}
	return dispatch(args, stdout, stderr)
}

// logFormatArg returns the --log-format given in args, else K6_LOG_FORMAT.
// It is read before the command parses its flags, so that every line the
// command logs, a flag error included, has the format asked for.
func logFormatArg(args []string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--log-format="); ok {
			return v
		}
		if a == "--log-format" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return os.Getenv("K6_LOG_FORMAT")
}

// dispatch runs the subcommand args[0].
func dispatch(args []string, stdout, stderr io.Writer) int {
	switch args[0] {
	case "run":
		return runCmd(args[1:], stdout, stderr)
	case "inspect":
		return inspectCmd(args[1:], stdout, stderr)
	case "archive":
		return archiveCmd(args[1:], stdout, stderr)
	case "merge":
		return mergeCmd(args[1:], stdout, stderr)
	case "aggregate":
		return aggregateCmd(args[1:], stdout, stderr)
	case "scale":
		return scaleCmd(args[1:], stdout, stderr)
	case "compare":
		return compareCmd(args[1:], stdout, stderr)
	case "search":
		return searchCmd(args[1:], stdout, stderr)
	case "mock":
		return mockCmd(args[1:], stdout, stderr)
	case "version":
		return versionCmd(args[1:], stdout, stderr)
	case "--version":
		fmt.Fprintln(stdout, versionString())
		return 0
	case "help", "-h", "--help":
		return helpCmd(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "ERRO unknown command %q\n%s", args[0], usage)
	return 2
}
