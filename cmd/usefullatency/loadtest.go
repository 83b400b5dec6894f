package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"strings"

	"github.com/usefullatency/usefullatency/archive"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/runner"
)

// loadTest loads the test run, inspect and archive are given: a script, or
// an archive (told apart by content, as k6 does, whatever the file's
// name). For an archive the files come from it, __ENV is its environment
// with env on top, and its options take the place of the script's.
// cfg says how remote modules are fetched and cached; its OnRead, when
// set, sees every file the test reads.
func loadTest(ctx context.Context, name string, env map[string]string, console io.Writer, cfg js.Config) (*loadedTest, error) {
	data, err := js.ReadLocalFile(name, cfg.MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) && !strings.Contains(name, "://") {
		return nil, &runner.ExitError{Code: runner.ExitInvalidConfig, Err: fmt.Errorf("script %s: no such file or directory", name)}
	}
	if err != nil || !archive.IsArchive(data) {
		test, err := runner.LoadConfigContext(ctx, name, cfg, env, console)
		if err != nil {
			return nil, err
		}
		return &loadedTest{test, test.ScriptOptions, env}, nil
	}
	arc, err := archive.Read(bytes.NewReader(data))
	if err != nil {
		return nil, &runner.ExitError{Code: runner.ExitInvalidConfig, Err: fmt.Errorf("archive %s: %v", name, err)}
	}
	layer, err := options.FromArchiveJSON(arc.Options)
	if err != nil {
		return nil, &runner.ExitError{Code: runner.ExitInvalidConfig, Err: fmt.Errorf("archive %s: %v", name, err)}
	}
	arcEnv := maps.Clone(arc.Env)
	if arcEnv == nil {
		arcEnv = map[string]string{}
	}
	maps.Copy(arcEnv, env)
	test, err := runner.LoadConfigContext(ctx, arc.MainPath(), js.Config{Files: arc, OnRead: cfg.OnRead, Secrets: cfg.Secrets}, arcEnv, console)
	if err != nil {
		return nil, err
	}
	return &loadedTest{test, layer, arcEnv}, nil
}

// loadedTest is a test loaded by loadTest.
type loadedTest struct {
	*runner.Test
	// Layer is the options of the script, or of the archive.
	Layer options.Options
	// Env is __ENV.
	Env map[string]string
}
