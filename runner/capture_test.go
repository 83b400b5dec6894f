package runner

import (
	"bytes"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/internal/pktcap"
)

// TestProbeCaptureModes: off never opens; auto opens on first use and,
// when the process may not, says so in one line, once, and goes on
// without; on fails up front naming the flag.
func TestProbeCaptureModes(t *testing.T) {
	opened := 0
	openCapture = func() (*pktcap.Capture, error) {
		opened++
		return nil, pktcap.ErrNotPermitted
	}
	defer func() { openCapture = pktcap.Open }()
	var notice bytes.Buffer
	pc, err := newProbeCapture("off", &notice)
	if err != nil || pc.get() != nil || opened != 0 {
		t.Fatalf("off: %v, opened %d", err, opened)
	}
	pc, err = newProbeCapture("", &notice)
	if err != nil || opened != 0 {
		t.Fatalf("auto opened before first use: %v, %d", err, opened)
	}
	first, second := pc.get(), pc.get()
	if first != nil || second != nil || opened != 1 {
		t.Fatalf("auto without permission: opened %d times", opened)
	}
	if lines := strings.Count(notice.String(), "\n"); lines != 1 || !strings.Contains(notice.String(), "CAP_NET_RAW") {
		t.Errorf("notice %q, want one line naming CAP_NET_RAW", notice.String())
	}
	pc.close()
	if _, err := newProbeCapture("on", &notice); err == nil || !strings.Contains(err.Error(), "--probe-capture on") {
		t.Errorf("on without permission: %v", err)
	}
}
