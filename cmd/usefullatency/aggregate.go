package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"
	"github.com/usefullatency/usefullatency/aggregate"
	"github.com/usefullatency/usefullatency/runner"
)

// aggregateFlags are the flags of `aggregate`: merge's summary flags and
// the service's own.
type aggregateFlags struct {
	*mergeFlags
	listen   string
	runners  int
	interval time.Duration
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
		"failed).\n\nFlags:\n")
	fs.StringVar(&f.listen, "listen", "127.0.0.1:6566", "address to take the runners' results on, host:port (port 0 picks one)")
	fs.IntVar(&f.runners, "runners", 0, "number of runners: done when that many finished; 0: when the finished ones cover the whole test")
	fs.DurationVar(&f.interval, "interval", aggregate.DefaultInterval, "time between two evaluations of the thresholds")
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
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return fail(stderr, runner.ExitCannotStartAPI, fmt.Errorf("--listen %s: %w", f.listen, err))
	}
	agg := aggregate.New(aggregate.Config{Interval: f.interval, Runners: f.runners, NoThresholds: f.noThresholds, Log: stderr})
	srv := &http.Server{Handler: agg.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
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
