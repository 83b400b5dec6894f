package k6http

import (
	"github.com/usefullatency/usefullatency/js/modules"
)

// settings are the run options the module reads, under their k6 names in
// the run's consolidated options (absent options keep k6's defaults).
type settings struct {
	// maxRedirects is the default of the redirects param: 10.
	// maxRedirectsSet reports that the run set the option.
	maxRedirects    int
	maxRedirectsSet bool
	// throw turns network failures (status 0) into exceptions.
	throw bool
	// batch and batchPerHost bound the parallel requests of http.batch:
	// 20 and 6 by default; 0 is no bound.
	batch, batchPerHost int
	// userAgent is the User-Agent of requests whose headers set none;
	// "" sends none.
	userAgent string
	// discard makes responseType none the default
	// (discardResponseBodies).
	discard bool
	// noVUReuse closes the VU's idle connections at the start of each
	// iteration (noVUConnectionReuse).
	noVUReuse bool
	// noReuse closes each connection after its request
	// (noConnectionReuse).
	noReuse bool
	// network is the VU's dialer, TLS configuration, rps limit and
	// httpDebug, shared with the streaming probe's code.
	network modules.Network
}

// runSettings reads the settings of VU vuID from run's options.
func runSettings(run *modules.Run, vuID int64) settings {
	s := settings{maxRedirects: defaultRedirects, batch: 20, batchPerHost: 6, userAgent: defaultUserAgent}
	s.network = run.Network(vuID)
	if run == nil {
		return s
	}
	o := run.Options
	for name, dst := range map[string]*int{"maxRedirects": &s.maxRedirects, "batch": &s.batch, "batchPerHost": &s.batchPerHost} {
		if n, ok := run.IntOption(name); ok {
			*dst = n
		}
	}
	_, s.maxRedirectsSet = run.IntOption("maxRedirects")
	if s.network.UserAgentSet {
		s.userAgent = s.network.UserAgent
	}
	s.throw, _ = o["throw"].(bool)
	s.discard, _ = o["discardResponseBodies"].(bool)
	s.noVUReuse, s.noReuse = s.network.NoVUConnectionReuse, s.network.NoConnectionReuse
	return s
}
