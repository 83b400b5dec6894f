package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/usefullatency/usefullatency/runner"
)

// signalContext returns ctx, canceled by the first SIGINT or SIGTERM, and
// force, canceled by the second (runner.Config.Force). The first stops the
// run gracefully and interrupts the phase running then (init, setup(),
// teardown(), handleSummary()); the second interrupts what still runs and
// skips handleSummary(), the run writing what is already measured (the
// summary export, the result file, the HTML report) before it exits with
// 105; a third exits at once.
func signalContext(stderr io.Writer) (ctx, force context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	force, cancelForce := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 3)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		for n := 1; ; n++ {
			var s os.Signal
			select {
			case s = <-sig:
			case <-done:
				return
			}
			switch n {
			case 1:
				fmt.Fprintf(stderr, "WARN stopping the test in response to %v; send it again to stop at once\n", s)
				cancel()
			case 2:
				fmt.Fprintf(stderr, "WARN stopping at once in response to %v: writing what was measured (summary export, outputs); send it again to exit without it\n", s)
				cancelForce()
			default:
				os.Exit(runner.ExitSignal)
			}
		}
	}()
	return ctx, force, func() { signal.Stop(sig); close(done); cancel(); cancelForce() }
}
