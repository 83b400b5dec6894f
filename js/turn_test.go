package js_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/cpugate"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
)

// turnSignals are the test module's channels: a script reports where it
// is with signal(name) and spins in spinUntil(name) until the test closes
// that channel; neither gives the VU's turn up.
var turnSignals = map[string]chan struct{}{}

func init() {
	modules.Register("k6/x/turntest", modules.ModuleFunc(func(modules.VU) modules.Instance { return turnModule{} }))
}

type turnModule struct{}

func (turnModule) Exports() modules.Exports {
	return modules.Exports{Named: map[string]any{
		"signal":    func(name string) { close(turnSignals[name]) },
		"spinUntil": func(name string) { <-turnSignals[name] },
	}}
}

// turnVUs starts n VUs of src sharing one run whose gate has one turn.
func turnVUs(t *testing.T, src string, n int) []*js.VU {
	t.Helper()
	b := jstest.NewBundle(t, src)
	run := jstest.NewRun(&bytes.Buffer{})
	run.JS = cpugate.New(1)
	vus := make([]*js.VU, n)
	for i := range vus {
		var err error
		if vus[i], err = b.NewVU(context.Background(), int64(i+1), run); err != nil {
			t.Fatal(err)
		}
	}
	return vus
}

// call runs name in vu on a goroutine; the channel gets its error.
func call(ctx context.Context, vu *js.VU, name string) chan error {
	done := make(chan error, 1)
	go func() {
		_, err := vu.Call(ctx, name)
		done <- err
	}()
	return done
}

// TestOneTurnRunsOneVU: with one turn, a VU whose JavaScript runs keeps
// the other from starting its own until it is done.
func TestOneTurnRunsOneVU(t *testing.T) {
	turnSignals = map[string]chan struct{}{"spinning": make(chan struct{}), "stop": make(chan struct{}), "second": make(chan struct{})}
	vus := turnVUs(t, `import { signal, spinUntil } from 'k6/x/turntest';
export function first() { signal('spinning'); spinUntil('stop'); }
export function second() { signal('second'); }
export default function () {}`, 2)
	ctx := context.Background()
	firstDone := call(ctx, vus[0], "first")
	<-turnSignals["spinning"]
	secondDone := call(ctx, vus[1], "second")
	select {
	case <-turnSignals["second"]:
		t.Fatal("a second VU ran JavaScript while the only turn was held")
	case <-time.After(100 * time.Millisecond): // an observation window, not a pace: nothing may happen in it
	}
	close(turnSignals["stop"])
	if err := <-firstDone; err != nil {
		t.Fatal(err)
	}
	<-turnSignals["second"]
	if err := <-secondDone; err != nil {
		t.Fatal(err)
	}
}

// TestBlockingCallsLendTheTurn: a VU blocked in sleep(), in a k6/http
// request or waiting on its event loop gives its turn up, so with one turn
// another VU still runs; each case would wait forever if it did not.
func TestBlockingCallsLendTheTurn(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			<-release
		}
	}))
	defer srv.Close()
	defer close(release)
	for _, tc := range []struct{ name, block string }{
		{"sleep", "sleep(600);"},
		{"http", "http.get(`" + srv.URL + "/hold`);"},
		{"event loop", "await new Promise((resolve) => setTimeout(resolve, 600000));"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turnSignals = map[string]chan struct{}{"blocking": make(chan struct{}), "second": make(chan struct{})}
			vus := turnVUs(t, `import http from 'k6/http';
import { sleep } from 'k6';
import { signal } from 'k6/x/turntest';
export async function first() { signal('blocking'); `+tc.block+` }
export function second() { signal('second'); }
export default function () {}`, 2)
			ctx, cancel := context.WithCancel(context.Background())
			firstDone := call(ctx, vus[0], "first")
			<-turnSignals["blocking"]
			secondDone := call(context.Background(), vus[1], "second")
			if err := <-secondDone; err != nil {
				t.Fatal(err)
			}
			<-turnSignals["second"]
			cancel()
			<-firstDone
		})
	}
}
