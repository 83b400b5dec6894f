package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"
	"github.com/usefullatency/usefullatency/aggregate"
	"github.com/usefullatency/usefullatency/options"
	"github.com/usefullatency/usefullatency/result"
	"github.com/usefullatency/usefullatency/runner"
	"github.com/usefullatency/usefullatency/sse"
)

// aggregateFlags are the flags of `aggregate`: merge's summary flags and
// the service's own.
type aggregateFlags struct {
	*mergeFlags
	listen         string
	runners        int
	interval       time.Duration
	token          string
	runnerAPIToken string
	maxPostSize    string
}

func newAggregateFlags(stderr io.Writer) *aggregateFlags {
	f := &aggregateFlags{mergeFlags: newMergeFlags(stderr)}
	fs := f.fs
	fs.Init("aggregate", pflag.ContinueOnError) // names the command in its usage
	setUsage(fs, "Usage: usefullatency aggregate [flags]\n\n"+
		"Takes the results the runners of one test post (run -o aggregator=URL), judges the\n"+
		"thresholds on the whole test every --interval and stops every runner through its\n"+
		"REST API when an abortOnFail threshold is crossed. When every runner has finished\n"+
		"(or on SIGINT) it prints the summary of the whole test (exit 99 when a threshold\n"+
		"failed).\n\n"+
		"Every post must carry the shared token (--token, or K6_AGGREGATOR_TOKEN; the runners\n"+
		"send K6_AGGREGATOR_TOKEN as Authorization: Bearer). Without one, posts are taken from\n"+
		"this machine only, and --listen must be a loopback address.\n\nFlags:\n")
	fs.StringVar(&f.listen, "listen", "127.0.0.1:6566", "address to take the runners' results on, host:port (port 0 picks one)")
	fs.IntVar(&f.runners, "runners", 0, "number of runners: done when that many finished, more are refused; 0: when the finished ones cover the whole test")
	fs.DurationVar(&f.interval, "interval", aggregate.DefaultInterval, "time between two evaluations of the thresholds")
	fs.StringVar(&f.token, "token", "", "the token every post must carry (default $K6_AGGREGATOR_TOKEN; the environment keeps it out of ps)")
	fs.StringVar(&f.runnerAPIToken, "runner-api-token", "", "the runners' REST API token, sent with the stop (default $K6_API_TOKEN)")
	fs.StringVar(&f.maxPostSize, "max-post-size", "64MiB", "largest post taken, as sent (compressed)")
	return f
}

// aggregateCmd implements `usefullatency aggregate`: live global thresholds
// over the results the runners of one test post, then one summary.
func aggregateCmd(args []string, stdout, stderr io.Writer) int {
	f := newAggregateFlags(stderr)
	if err := f.fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	if f.fs.NArg() > 0 {
		return fail(stderr, runner.ExitInvalidConfig, fmt.Errorf("aggregate takes no arguments, got %q", strings.Join(f.fs.Args(), " ")))
	}
	if f.runners < 0 || f.interval <= 0 {
		return fail(stderr, runner.ExitInvalidConfig, fmt.Errorf("--runners %d --interval %s: want runners >= 0 and a positive interval", f.runners, f.interval))
	}
	cfg, err := f.config(stderr)
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return fail(stderr, runner.ExitCannotStartAPI, fmt.Errorf("--listen %s: %w", f.listen, err))
	}
	if addr, ok := ln.Addr().(*net.TCPAddr); cfg.Token == "" && (!ok || !addr.IP.IsLoopback()) {
		ln.Close()
		return fail(stderr, runner.ExitInvalidConfig, fmt.Errorf("--listen %s takes posts from other machines: give the runners' shared token with %s (or --token)", f.listen, aggregate.TokenEnv))
	}
	agg := aggregate.New(cfg)
	srv := agg.Serve(ln)
	if cfg.Token == "" {
		fmt.Fprintf(stderr, "WARN aggregate: no token (--token or %s): posts are taken from this machine only, and any process on it can post\n", aggregate.TokenEnv)
	}
	fmt.Fprintf(stderr, "INFO aggregate: listening on http://%s (runners: -o aggregator=http://%s)\n", ln.Addr(), ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	merged, aborted, err := agg.Run(ctx)
	shutdown, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdown)
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	if merged == nil {
		return fail(stderr, runner.ExitInvalidConfig, errors.New("no runner posted a result"))
	}
	return f.judge(merged, aborted, stdout, stderr)
}

// config is the aggregator's configuration from the flags and, for the
// tokens not given as flags, the environment. Errors never show a token.
func (f *aggregateFlags) config(stderr io.Writer) (aggregate.Config, error) {
	cfg := aggregate.Config{Interval: f.interval, Runners: f.runners, NoThresholds: f.noThresholds, Log: stderr,
		Token: f.token, RunnerAPIToken: f.runnerAPIToken}
	if !f.fs.Changed("token") {
		cfg.Token = os.Getenv(aggregate.TokenEnv)
	}
	if !f.fs.Changed("runner-api-token") {
		cfg.RunnerAPIToken = os.Getenv("K6_API_TOKEN")
	}
	if cfg.Token != "" && aggregate.CheckToken(cfg.Token) != nil {
		return cfg, fmt.Errorf("--token (or %s): want 8 to 4096 visible ASCII characters without spaces (the value is not shown)", aggregate.TokenEnv)
	}
	if strings.ContainsFunc(cfg.RunnerAPIToken, func(r rune) bool { return r <= ' ' || r >= 0x7f }) {
		return cfg, errors.New("--runner-api-token (or K6_API_TOKEN): want visible ASCII characters without spaces (the value is not shown)")
	}
	size, err := sse.ParseByteSize(f.maxPostSize)
	if err != nil || size < 1<<10 {
		return cfg, fmt.Errorf("--max-post-size %q: want a size of at least 1KiB, such as 64MiB", f.maxPostSize)
	}
	cfg.MaxPostBytes = int64(size)
	if cfg.Limits, err = result.LimitsFromEnv(options.EnvMap(os.Environ())); err != nil {
		return cfg, err
	}
	return cfg, nil
}
