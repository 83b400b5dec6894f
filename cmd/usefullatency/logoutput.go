package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/usefullatency/usefullatency/logline"
)

// consoleWriter opens where console lines go: the --console-output file
// (or K6_CONSOLE_OUTPUT) when one is given, else the --log-output target
// (stderr, stdout, none or file=PATH). close closes an opened file.
func consoleWriter(f *runFlags, stdout, stderr io.Writer) (w io.Writer, closeFn func(), err error) {
	nop := func() {}
	path := f.fs.Lookup("console-output").Value.String()
	if path == "" {
		path = os.Getenv("K6_CONSOLE_OUTPUT")
	}
	if path != "" {
		return createLog("--console-output", path, f.logFormat)
	}
	switch target := f.logOutput; {
	case target == "" || target == "stderr":
		return stderr, nop, nil
	case target == "stdout":
		return stdout, nop, nil
	case target == "none":
		return io.Discard, nop, nil
	case strings.HasPrefix(target, "file="):
		return createLog("--log-output", strings.TrimPrefix(target, "file="), f.logFormat)
	default:
		return nil, nop, fmt.Errorf("--log-output %q: want stderr, stdout, none or file=PATH", target)
	}
}

// createLog creates (or truncates) the log file at path; its lines have
// the --log-format given, logfmt by default, as a file is no terminal.
func createLog(flag, path, format string) (io.Writer, func(), error) {
	lf, err := logline.ParseFormat(format, false)
	if err != nil {
		return nil, func() {}, err
	}
	file, err := os.Create(path)
	if err != nil {
		return nil, func() {}, fmt.Errorf("%s: %w", flag, err)
	}
	lw := logline.NewWriter(file, lf)
	return lw, func() { _ = lw.Flush(); _ = file.Close() }, nil
}
