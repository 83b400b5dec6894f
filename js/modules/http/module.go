// Package k6http is the k6/http JavaScript module: http.get, http.post and
// the other request functions of k6, measured with net/http/httptrace and
// reported under k6's metric names (http_reqs, http_req_duration, …) and
// tags. Each VU has its own client, so a VU's connections are reused across
// its requests. Network failures are responses with status 0 and one of
// k6's numeric error codes, never script exceptions; bad arguments are
// exceptions thrown before anything is sent.
package k6http

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6/http"

// New returns the module; it is instantiated once per VU.
func New() modules.Module {
	return modules.ModuleFunc(func(vu modules.VU) modules.Instance { return newHTTP(vu) })
}
