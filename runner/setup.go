package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/usefullatency/usefullatency/js"
)

// setup runs the script's setup() on VU 0, unless noSetup, and hands the
// setup data to every VU initialised so far. The data is the one setup()
// returned, or the one the REST API set while the test was paused.
func (e *execution) setup(ctx context.Context) (int, error) {
	if !e.cfg.Options.NoSetup {
		e.ctl.setStatus(StatusSetup)
		data, code, err := e.t.callSetup(ctx, time.Duration(e.cfg.Options.SetupTimeout))
		if err != nil {
			return code, err
		}
		if e.t.Main.HasFunction("setup") {
			e.ctl.SetSetupData(data)
		}
	}
	data := e.ctl.SetupData()
	for _, sr := range e.scenarios {
		for _, vu := range sr.vus {
			if err := vu.(*js.VU).SetSetupData(data); err != nil {
				return ExitScriptException, err
			}
		}
	}
	return 0, nil
}

// teardown runs the script's teardown(data) on VU 0, unless noTeardown. It
// runs also after the scenarios were stopped (a signal, the REST API,
// test.abort()), and the next signal interrupts it (see nextSignal): the
// run then ends with ExitSignal.
func (e *execution) teardown() (int, error) {
	if e.cfg.Options.NoTeardown {
		return 0, nil
	}
	e.ctl.setStatus(StatusTeardown)
	return e.t.callTeardown(e.nextSignal(), time.Duration(e.cfg.Options.TeardownTimeout), e.ctl.SetupData())
}

// callSetup runs setup() on Main within timeout and returns its result as
// JSON, nil when the script has no setup() or it returned undefined; on
// failure, the exit code it maps to.
func (t *Test) callSetup(ctx context.Context, timeout time.Duration) ([]byte, int, error) {
	if !t.Main.HasFunction("setup") {
		return nil, 0, nil
	}
	t.mainMu.Lock()
	defer t.mainMu.Unlock()
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := t.Main.Call(sctx, "setup")
	if err != nil {
		if errors.Is(err, js.ErrInterrupted) && sctx.Err() == context.DeadlineExceeded {
			return nil, ExitSetupTimeout, fmt.Errorf("setup() execution timed out after %s", timeout)
		}
		return nil, scriptExit(err), fmt.Errorf("setup() failed: %w", err)
	}
	if res == nil {
		return nil, 0, nil
	}
	b, err := json.Marshal(res.Export())
	if err != nil {
		return nil, ExitScriptException, fmt.Errorf("setup() returned data that is not JSON: %w", err)
	}
	return b, 0, nil
}

// callTeardown runs teardown(data) on Main within timeout, data being the
// setup data as JSON; on failure, it returns the exit code it maps to:
// ExitTeardownTimeout past timeout, ExitSignal when ctx ended (a signal).
func (t *Test) callTeardown(ctx context.Context, timeout time.Duration, data []byte) (int, error) {
	if !t.Main.HasFunction("teardown") {
		return 0, nil
	}
	t.mainMu.Lock()
	defer t.mainMu.Unlock()
	if err := t.Main.SetSetupData(data); err != nil {
		return ExitScriptException, err
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if _, err := t.Main.Call(tctx, "teardown", t.Main.SetupValue()); err != nil {
		switch {
		case errors.Is(err, js.ErrInterrupted) && ctx.Err() != nil:
			return ExitSignal, errors.New("the test was interrupted during teardown()")
		case errors.Is(err, js.ErrInterrupted) && tctx.Err() == context.DeadlineExceeded:
			return ExitTeardownTimeout, fmt.Errorf("teardown() execution timed out after %s", timeout)
		}
		return scriptExit(err), fmt.Errorf("teardown() failed: %w", err)
	}
	return 0, nil
}

// scriptExit maps an error of setup or teardown to its exit code.
func scriptExit(err error) int {
	var abort *js.AbortError
	if errors.As(err, &abort) {
		return ExitAborted
	}
	return ExitScriptException
}
