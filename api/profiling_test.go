package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/options"
)

// --profiling-enabled serves the process's pprof profiles behind the same
// token as the rest of the API; without it /debug/pprof/ is not served.
func TestProfilingEndpoints(t *testing.T) {
	for _, on := range []bool{false, true} {
		g := startGuarded(t, Config{Token: "t0k3n", Profiling: on}, func(*options.Options) {})
		auth := map[string]string{"Authorization": "Bearer t0k3n"}
		code, _, body, _ := send(t, http.MethodGet, g.base+"/debug/pprof/heap?debug=1", "", auth)
		if got := code == http.StatusOK && strings.Contains(body, "heap profile"); got != on {
			t.Errorf("profiling %v: GET /debug/pprof/heap answered %d %.60q", on, code, body)
		}
		if on {
			code, _, _, _ = send(t, http.MethodGet, g.base+"/debug/pprof/goroutine?debug=1", "", nil)
			if code != http.StatusUnauthorized {
				t.Errorf("a profile without the token: %d, want 401", code)
			}
		}
		g.stop(t, auth)
	}
}
