package k6http

import "github.com/usefullatency/usefullatency/js/modules"

// settings are the run options the module reads: k6's maxRedirects and
// throw, under their k6 names in the run's consolidated options (absent
// options keep k6's defaults).
type settings struct {
	// maxRedirects is the default of the redirects param: 10.
	maxRedirects int
	// throw turns network failures (status 0) into exceptions.
	throw bool
}

// runSettings reads the settings from run's options.
func runSettings(run *modules.Run) settings {
	s := settings{maxRedirects: defaultRedirects}
	if run == nil {
		return s
	}
	switch v := run.Options["maxRedirects"].(type) {
	case float64:
		s.maxRedirects = int(v)
	case int64:
		s.maxRedirects = int(v)
	case int:
		s.maxRedirects = v
	}
	if b, ok := run.Options["throw"].(bool); ok {
		s.throw = b
	}
	return s
}
