package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	"github.com/usefullatency/usefullatency/api"
	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/output"
	"github.com/usefullatency/usefullatency/runner"
	"golang.org/x/term"
)

// runCmd implements `usefullatency run`.
func runCmd(args []string, stdout, stderr io.Writer) int {
	f, script, env, code, done := parseRun(args, "run", stderr)
	if done {
		return code
	}
	stderr = f.redacted(stderr)
	ses, err := openSession(f, env, stdout, stderr)
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	defer ses.close()
	ctx, force, console := ses.ctx, ses.force, ses.console
	test, opts, code, ok := loadScript(ctx, f, script, env, console, stderr)
	if !ok {
		return code
	}
	if err := checkVULimit(f, opts); err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	opts.Out = withAggregator(opts.Out, os.Getenv("K6_AGGREGATOR_URL"))
	for _, w := range append(opts.Warnings, optionWarnings(opts, f.restAddress())...) {
		fmt.Fprintln(stderr, "WARN "+w)
	}
	ctl := runner.NewControl(test, opts)
	var apiAddr string
	if addr := f.restAddress(); addr != "" {
		srv, err := api.Listen(addr, ctl, api.Config{Token: f.restToken(), Log: stderr, Profiling: f.profilingEnabled()})
		if err != nil {
			return fail(stderr, runner.ExitCannotStartAPI, err)
		}
		defer srv.Close()
		for _, w := range srv.Warnings() {
			fmt.Fprintln(stderr, "WARN "+w)
		}
		apiAddr = srv.Addr()
	}
	code, err = test.Execute(ctx, runner.Config{
		Options: opts, ScriptName: script, Stdout: stdout, Stderr: stderr,
		StdoutTTY: isTerminal(stdout) && !f.noColor, StderrTTY: isTerminal(stderr),
		Env: options.EnvMap(os.Environ()), Control: ctl, APIAddress: apiAddr, Force: force,
	})
	if err != nil {
		fmt.Fprintln(stderr, "ERRO "+redact.Text(oneLine(err)))
		if code == 0 {
			code = runner.ExitInvalidConfig
		}
	}
	if code == runner.ExitStoppedFromAPI {
		fmt.Fprintln(stderr, "ERRO the test was stopped through the REST API (PATCH /v1/status with stopped: true)")
	}
	if code == runner.ExitThresholdsFailed {
		fmt.Fprintf(stderr, "ERRO thresholds on metrics '%s' have been crossed\n", strings.Join(test.CrossedThresholds(), ", "))
	}
	return code
}

// session is what run and search set up before they load the script.
type session struct {
	console    io.Writer
	ctx, force context.Context
	close      func()
}

// openSession starts the built-in assistant when --mock asks for it,
// opens the console log (masking secret values) and handles signals from then on, so that one
// during the init code (even an endless loop) or setup() stops the run
// with 105. close undoes them, in the reverse order.
func openSession(f *runFlags, env map[string]string, stdout, stderr io.Writer) (*session, error) {
	stopMock := func() {}
	if f.mock {
		var err error
		if stopMock, err = startMock(f, env); err != nil {
			return nil, err
		}
	}
	console, closeConsole, err := consoleWriter(f, stdout, stderr)
	if err != nil {
		stopMock()
		return nil, err
	}
	console = f.redacted(console)
	ctx, force, stop := signalContext(stderr)
	return &session{console: console, ctx: ctx, force: force, close: func() {
		stop()
		closeConsole()
		stopMock()
	}}, nil
}

// loadScript loads the script and consolidates its options with the
// flags; on failure it prints why and returns the exit code.
func loadScript(ctx context.Context, f *runFlags, script string, env map[string]string, console, stderr io.Writer) (*runner.Test, options.Options, int, bool) {
	loaded, err := loadTest(ctx, script, env, console, f.jsConfig())
	if err != nil {
		return nil, options.Options{}, failExit(stderr, err), false
	}
	test := loaded.Test
	opts, err := consolidate(f, loaded.Layer)
	if err != nil {
		return nil, options.Options{}, fail(stderr, runner.ExitInvalidConfig, err), false
	}
	return test, opts, 0, true
}

// consolidate merges script, environment and flag options and checks the
// outputs named with -o.
func consolidate(f *runFlags, script options.Options) (options.Options, error) {
	envLayer, err := options.FromEnv(os.Environ())
	if err != nil {
		return options.Options{}, err
	}
	flagLayer, err := f.layer()
	if err != nil {
		return options.Options{}, err
	}
	configLayer, err := f.configLayer()
	if err != nil {
		return options.Options{}, err
	}
	opts, err := options.Consolidate(configLayer, script, envLayer, flagLayer)
	if err != nil {
		return opts, err
	}
	return opts, checkOutputs(opts.Out)
}

// withAggregator adds the aggregator output when K6_AGGREGATOR_URL (url)
// is set and no -o names one, so that runners find their aggregator by
// the environment alone, whatever other outputs their flags give.
func withAggregator(outs []string, url string) []string {
	if url == "" {
		return outs
	}
	for _, o := range outs {
		if typ, _, _ := strings.Cut(o, "="); typ == "aggregator" {
			return outs
		}
	}
	return append(slices.Clip(outs), "aggregator")
}

// checkOutputs rejects unknown -o types before the script's setup runs.
func checkOutputs(outs []string) error {
	known := output.Types()
	for _, o := range outs {
		typ, _, _ := strings.Cut(o, "=")
		if !slices.Contains(known, typ) {
			return fmt.Errorf("--out %q: unknown output type %q (known: %s)", o, typ, strings.Join(known, ", "))
		}
	}
	return nil
}

// scriptEnv is __ENV: the process environment (unless disabled) with the
// -e values on top.
func scriptEnv(f *runFlags) (map[string]string, error) {
	env := map[string]string{}
	if f.systemEnv {
		env = options.EnvMap(os.Environ())
	}
	flags, err := keyValues("--env", f.env)
	for k, v := range flags {
		env[k] = v
	}
	return env, err
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// fail prints err on one line and returns code.
func fail(stderr io.Writer, code int, err error) int {
	fmt.Fprintln(stderr, "ERRO "+redact.Text(oneLine(err)))
	return code
}

// failExit prints err and returns the exit code it carries.
func failExit(stderr io.Writer, err error) int {
	var ee *runner.ExitError
	if errors.As(err, &ee) {
		return fail(stderr, ee.Code, err)
	}
	return fail(stderr, runner.ExitInvalidConfig, err)
}

// oneLine joins a multi-error's lines with "; " unless it is a JS stack.
func oneLine(err error) string {
	msg := err.Error()
	if strings.Contains(msg, "\tat ") {
		return msg
	}
	return strings.ReplaceAll(msg, "\n", "; ")
}

// startMock starts the simulated assistant in-process on --mock-addr, or
// a free loopback port, and sets in env the names mockEnv lists (SUT_URL,
// BASE_URL, OPENAI_API_BASE, …), each unless -e set it, so example scripts
// and scripts written for other servers find it. The returned function
// stops it.
func startMock(f *runFlags, env map[string]string) (func(), error) {
	srv, err := f.mockFlags.server()
	if err != nil {
		return nil, fmt.Errorf("--mock: %w", err)
	}
	addr, flag := f.mockFlags.addr, "--mock-addr"
	if addr == "" {
		addr, flag = "127.0.0.1:0", "--mock"
	}
	url, err := srv.Start(addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	for name, value := range mockEnv(url) {
		if _, set := keyValuesHas(f.env, name); !set {
			env[name] = value
		}
	}
	return func() { _ = srv.Close() }, nil
}

// keyValuesHas reports whether a repeated NAME=VALUE flag sets name.
func keyValuesHas(list []string, name string) (string, bool) {
	for _, kv := range list {
		if k, v, _ := strings.Cut(kv, "="); k == name {
			return v, true
		}
	}
	return "", false
}

// parseRun parses the flags of run or inspect and their one script,
// builds __ENV and opens the secret sources (f.redacted masks their
// values in a log writer). done reports that the command must return code now (help
// shown, or an error printed).
func parseRun(args []string, cmd string, stderr io.Writer) (f *runFlags, script string, env map[string]string, code int, done bool) {
	return parseRunWith(args, cmd, stderr, nil)
}

// parseRunWith is parseRun with extra, when set, adding the flags of one
// command (inspect's, archive's) to run's.
func parseRunWith(args []string, cmd string, stderr io.Writer, extra func(f *runFlags)) (
	f *runFlags, script string, env map[string]string, code int, done bool) {
	f = newRunFlags(stderr)
	f.fs.Init(cmd, pflag.ContinueOnError) // names the command in its usage
	if extra != nil {
		extra(f)
	}
	if err := f.fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return f, "", nil, 0, true
		}
		return f, "", nil, fail(stderr, runner.ExitInvalidConfig, err), true
	}
	if f.fs.NArg() != 1 {
		err := fmt.Errorf("%s needs exactly one script: usefullatency %s [flags] script.js", cmd, cmd)
		return f, "", nil, fail(stderr, runner.ExitInvalidConfig, err), true
	}
	env, err := scriptEnv(f)
	if err != nil {
		return f, "", nil, fail(stderr, runner.ExitInvalidConfig, err), true
	}
	if err := f.openSecrets(); err != nil {
		return f, "", nil, fail(stderr, runner.ExitInvalidConfig, err), true
	}
	return f, f.fs.Arg(0), env, 0, false
}
