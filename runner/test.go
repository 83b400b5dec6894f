package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

// Test is a loaded script: the bundle, the shared run state and the VU
// that runs setup, teardown and handleSummary.
type Test struct {
	Bundle *js.Bundle
	Run    *modules.Run
	// Main is VU 0: it evaluated the init code first and runs setup,
	// teardown and handleSummary.
	Main *js.VU
	// ScriptOptions are the script's exported options, parsed.
	ScriptOptions options.Options

	// mainMu serialises the calls on Main: the run's own setup, teardown
	// and handleSummary, and those the REST API asks for.
	mainMu sync.Mutex
}

// Load parses the script at path and evaluates its init code once, with env
// as __ENV. Syntax errors and init exceptions exit 107; invalid script
// options 104.
func Load(path string, env map[string]string, log io.Writer) (*Test, error) {
	return LoadContext(context.Background(), path, env, log)
}

// LoadContext is Load whose init code is interrupted when ctx ends (a
// signal while the script loads, even in an endless loop): it then returns
// an *ExitError with ExitSignal.
func LoadContext(ctx context.Context, path string, env map[string]string, log io.Writer) (*Test, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, exitf(ExitInvalidConfig, "script %s: %v", path, strings.TrimPrefix(err.Error(), "stat "+path+": "))
	}
	return LoadConfigContext(ctx, path, js.Config{CacheDir: js.DefaultCacheDir()}, env, log)
}

// LoadConfig is Load with cfg saying where the bundle reads its files (an
// archive's, see js.Config.Files), who sees them read and which secret
// sources k6/secrets reads; the main script is not looked for on the disk
// first.
func LoadConfig(path string, cfg js.Config, env map[string]string, log io.Writer) (*Test, error) {
	return LoadConfigContext(context.Background(), path, cfg, env, log)
}

// LoadConfigContext is LoadConfig whose init code is interrupted when ctx
// ends, as in LoadContext.
func LoadConfigContext(ctx context.Context, path string, cfg js.Config, env map[string]string, log io.Writer) (*Test, error) {
	b, err := js.NewBundleConfig(path, cfg)
	if err != nil {
		return nil, &ExitError{Code: ExitScriptException, Err: err}
	}
	reg := metrics.NewRegistry()
	run := &modules.Run{
		Engine: metrics.NewEngine(reg), Registry: reg, Builtin: metrics.RegisterBuiltin(reg),
		Root: metrics.NewRootGroup(), Tags: metrics.Tags{}, Env: env, Log: log, Secrets: cfg.Secrets,
	}
	main, err := b.NewVU(ctx, 0, run)
	if err != nil {
		if ctx.Err() != nil {
			return nil, exitf(ExitSignal, "interrupted while loading the script (init code)")
		}
		return nil, &ExitError{Code: initExit(err), Err: err}
	}
	for _, w := range b.Warnings() { // a remote module's URL may carry a token
		fmt.Fprintln(log, "WARN "+redact.Text(w))
	}
	raw := main.ExportedOptions()
	opts, err := options.FromScript(raw)
	if err != nil {
		return nil, &ExitError{Code: ExitInvalidConfig, Err: err}
	}
	return &Test{Bundle: b, Run: run, Main: main, ScriptOptions: opts}, nil
}

// initExit maps an error of init code to its exit code: 108 when the
// script called exec.test.abort(), else 107.
func initExit(err error) int {
	var abort *js.AbortError
	if errors.As(err, &abort) {
		return ExitAborted
	}
	return ExitScriptException
}

// CrossedThresholds names the metrics whose thresholds failed at the end of
// the run, sorted; see metrics.CrossedMetrics.
func (t *Test) CrossedThresholds() []string {
	var names []string
	t.Run.Engine.Read(func() { names = metrics.CrossedMetrics(t.Run.Registry) })
	return names
}
