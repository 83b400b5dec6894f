package k6browser

import (
	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/chromium"
)

// PageOf returns the Chromium page behind a k6/browser Page value of a script.
func PageOf(v sobek.Value) (*chromium.Page, bool) {
	jp, ok := valueOf(v).(*jsPage)
	if !ok || jp == nil {
		return nil, false
	}
	return jp.p, true
}
