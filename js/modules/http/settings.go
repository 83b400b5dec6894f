package k6http

import (
	"encoding/json"

	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/options"
)

// settings are the run options the module reads, under their k6 names in
// the run's consolidated options (absent options keep k6's defaults).
type settings struct {
	// maxRedirects is the default of the redirects param: 10.
	maxRedirects int
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
	// client configures the VU's transport.
	client clientOptions
}

// runSettings reads the settings from run's options.
func runSettings(run *modules.Run) settings {
	s := settings{maxRedirects: defaultRedirects, batch: 20, batchPerHost: 6, userAgent: defaultUserAgent}
	if run == nil {
		return s
	}
	o := run.Options
	for name, dst := range map[string]*int{"maxRedirects": &s.maxRedirects, "batch": &s.batch, "batchPerHost": &s.batchPerHost} {
		if n, ok := run.IntOption(name); ok {
			*dst = n
		}
	}
	if ua, ok := o["userAgent"].(string); ok {
		s.userAgent = ua
	}
	s.throw, _ = o["throw"].(bool)
	s.discard, _ = o["discardResponseBodies"].(bool)
	s.noVUReuse, _ = o["noVUConnectionReuse"].(bool)
	c := &s.client
	c.InsecureSkipTLSVerify = run.InsecureSkipTLSVerify
	c.NoConnectionReuse, _ = o["noConnectionReuse"].(bool)
	decodeOption(o, "hosts", &c.Hosts)
	decodeOption(o, "blockHostnames", &c.BlockHostnames)
	decodeOption(o, "blacklistIPs", &c.BlacklistIPs)
	decodeOption(o, "tlsVersion", &c.TLSVersion)
	decodeOption(o, "tlsCipherSuites", &c.TLSCipherSuites)
	decodeOption(o, "tlsAuth", &c.TLSAuth)
	return s
}

// decodeOption reads the option opts holds under name, in its JSON form,
// into dst; an absent option leaves dst alone. The options package has
// validated it already.
func decodeOption[T any](opts map[string]any, name string, dst *T) {
	v, ok := opts[name]
	if !ok || v == nil {
		return
	}
	b, err := json.Marshal(v)
	if err == nil {
		_ = json.Unmarshal(b, dst)
	}
}

// The option types the client reads, from the options package.
type (
	tlsVersions = options.TLSVersions
	tlsAuth     = options.TLSAuth
)
