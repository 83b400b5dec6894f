package k6http

import "github.com/usefullatency/usefullatency/js/modules"

// settings are the run options the module reads: k6's maxRedirects,
// throw, batch and batchPerHost, under their k6 names in the run's
// consolidated options (absent options keep k6's defaults).
type settings struct {
	// maxRedirects is the default of the redirects param: 10.
	maxRedirects int
	// throw turns network failures (status 0) into exceptions.
	throw bool
	// batch and batchPerHost bound the parallel requests of http.batch:
	// 20 and 6 by default; 0 is no bound.
	batch, batchPerHost int
}

// runSettings reads the settings from run's options.
func runSettings(run *modules.Run) settings {
	s := settings{maxRedirects: defaultRedirects, batch: 20, batchPerHost: 6}
	if run == nil {
		return s
	}
	for name, dst := range map[string]*int{"maxRedirects": &s.maxRedirects, "batch": &s.batch, "batchPerHost": &s.batchPerHost} {
		if n, ok := run.IntOption(name); ok {
			*dst = n
		}
	}
	if b, ok := run.Options["throw"].(bool); ok {
		s.throw = b
	}
	return s
}
