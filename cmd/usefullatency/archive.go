package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/usefullatency/usefullatency/archive"
	"github.com/usefullatency/usefullatency/runner"
)

// archiveFlags are the flags archive adds to run's.
type archiveFlags struct {
	out        string
	excludeEnv bool
}

// archiveCmd implements `usefullatency archive [run flags] script.js`: it
// loads the script (or an archive) as run would, evaluating its init code
// once, and writes a k6-style archive with the consolidated options, the
// __ENV it was given and every file the init code read, to -O (default
// archive.tar; "-" is stdout). As in k6, the process environment is not
// stored unless --include-system-env-vars is given, and
// --exclude-env-vars stores no environment at all. Secret sources are not
// stored either: not --secret-source, not the K6_SECRET_SOURCE* variables
// (so running the archive needs them again), as k6 stores no secret.
func archiveCmd(args []string, stdout, stderr io.Writer) int {
	var af archiveFlags
	f, script, env, code, done := parseRunWith(args, "archive", stderr, func(f *runFlags) {
		f.fs.StringVarP(&af.out, "archive-out", "O", "archive.tar", `archive file to write; "-" writes it to stdout`)
		f.fs.BoolVar(&af.excludeEnv, "exclude-env-vars", false, "store no environment variables in the archive")
		f.systemEnv = false
		f.fs.Lookup("include-system-env-vars").DefValue = "false"
	})
	if done {
		return code
	}
	stderr = f.redacted(stderr)
	arc, code, ok := buildArchive(f, script, env, stderr)
	if !ok {
		return code
	}
	if af.excludeEnv {
		arc.Env = nil
	}
	for name := range arc.Env { // K6_SECRET_SOURCE, K6_SECRET_SOURCE_URL_*: an archive carries no secret
		if strings.HasPrefix(name, "K6_SECRET_SOURCE") {
			delete(arc.Env, name)
		}
	}
	if err := writeArchive(arc, af.out, stdout); err != nil {
		return fail(stderr, runner.ExitInvalidConfig, fmt.Errorf("archive %s: %v", af.out, err))
	}
	return 0
}

// buildArchive loads the test, recording the files it reads, and
// consolidates its options.
func buildArchive(f *runFlags, script string, env map[string]string, stderr io.Writer) (*archive.Archive, int, bool) {
	var mu sync.Mutex
	files := map[string][]byte{}
	record := func(name string, data []byte) {
		mu.Lock()
		defer mu.Unlock()
		files[name] = data
	}
	cfg := f.jsConfig()
	cfg.OnRead = record
	loaded, err := loadTest(context.Background(), script, env, stderr, cfg)
	if err != nil {
		return nil, failExit(stderr, err), false
	}
	opts, err := consolidate(f, loaded.Layer)
	if err != nil {
		return nil, fail(stderr, runner.ExitInvalidConfig, err), false
	}
	for _, w := range opts.Warnings {
		fmt.Fprintln(stderr, "WARN "+w)
	}
	if err := loaded.ReadTraces(opts.Scenarios); err != nil { // recorded: the archive carries them
		return nil, fail(stderr, runner.ExitInvalidConfig, err), false
	}
	optsJSON, err := opts.ArchiveJSON()
	if err != nil {
		return nil, fail(stderr, runner.ExitInvalidConfig, err), false
	}
	mu.Lock()
	defer mu.Unlock()
	main := loaded.Bundle.Path
	arc := archive.New(main, files[main], optsJSON)
	for name, data := range files {
		arc.Add(name, data)
	}
	arc.Env = loaded.Env
	arc.K6Version, arc.Goos = archiveVersion(), runtime.GOOS
	if opts.CompatibilityMode != "" {
		arc.CompatibilityMode = opts.CompatibilityMode
	}
	return arc, 0, true
}

// archiveVersion is the version metadata.json records.
func archiveVersion() string {
	if version != "" {
		return version
	}
	return "devel"
}

// writeArchive writes arc to the file out, or to stdout when out is "-".
func writeArchive(arc *archive.Archive, out string, stdout io.Writer) error {
	if out == "-" {
		return arc.Write(stdout)
	}
	file, err := os.Create(out)
	if err != nil {
		return err
	}
	err = arc.Write(file)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	return err
}
