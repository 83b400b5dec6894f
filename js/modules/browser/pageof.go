package browser

import (
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
)

// PageOf returns the Chromium page behind a k6/browser Page value of a script.
func PageOf(v sobek.Value) (*chromium.Page, bool) {
	if v == nil {
		return nil, false
	}
	p, ok := v.Export().(*chromium.Page)
	return p, ok && p != nil
}
