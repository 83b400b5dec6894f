package runner

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/usefullatency/usefullatency/internal/pktcap"
)

// openCapture opens a packet capture (a variable for the tests).
var openCapture = pktcap.Open

// probeCapture opens the packet capture of --probe-capture when the first
// probe client asks for it: a test without streams never opens one. "on"
// opens it up front (a run that can't have it fails before it starts),
// "off" never does.
type probeCapture struct {
	mode   string
	notice io.Writer

	once sync.Once
	c    *pktcap.Capture
}

// newProbeCapture prepares the capture of mode; with "on" it opens it now.
func newProbeCapture(mode string, notice io.Writer) (*probeCapture, error) {
	pc := &probeCapture{mode: mode, notice: notice}
	if mode != "on" {
		return pc, nil
	}
	c, err := openCapture()
	if err != nil {
		return nil, fmt.Errorf("--probe-capture on: %w", err)
	}
	pc.once.Do(func() { pc.c = c })
	return pc, nil
}

// get returns the capture, opening it on first use; nil when off or not
// permitted (then one line says so, once).
func (pc *probeCapture) get() *pktcap.Capture {
	if pc.mode == "off" {
		return nil
	}
	pc.once.Do(func() {
		c, err := openCapture()
		if err != nil {
			why := err.Error()
			if errors.Is(err, pktcap.ErrNotPermitted) {
				why = "it needs CAP_NET_RAW (root, or the container's capability)"
			}
			fmt.Fprintf(pc.notice, "INFO --probe-capture: no packet capture (%s): events read together share the read's stamp and are counted in usefulsse_coalesced_events\n", why)
			return
		}
		pc.c = c
	})
	return pc.c
}

// close closes the capture if it was opened.
func (pc *probeCapture) close() {
	if pc == nil {
		return
	}
	pc.once.Do(func() {}) // no capture opens after this
	if pc.c != nil {
		_ = pc.c.Close()
	}
}
