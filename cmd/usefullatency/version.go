package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/pflag"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = ""

// versionCmd implements `usefullatency version`: the version on stdout.
// It has no flags; any argument but -h or --help is ignored, as before.
func versionCmd(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("version", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.ParseErrorsAllowlist.UnknownFlags = true
	setUsage(fs, "Usage: usefullatency version\n\n"+
		"Prints the version, the Go release it was built with and the platform.\n")
	if err := fs.Parse(args); errors.Is(err, pflag.ErrHelp) {
		return 0
	}
	fmt.Fprintln(stdout, versionString())
	return 0
}

// versionString returns "usefullatency <version> (<go>, <os>/<arch>)".
func versionString() string {
	v := version
	if v == "" {
		v = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" && len(s.Value) >= 12 {
					v = "dev-" + s.Value[:12]
				}
			}
		}
	}
	return fmt.Sprintf("usefullatency %s (%s, %s/%s)", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
