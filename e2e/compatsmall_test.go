package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRedirectLimitWarningAndThrownIterations runs the binary on a script
// whose requests stop at the default redirect limit and whose iterations
// then throw. As in k6: each request logs the redirect warning (logfmt, as
// k6 logs when stderr is not a terminal) unless the run set maxRedirects,
// and the final progress counts the thrown iterations as complete.
func TestRedirectLimitWarningAndThrownIterations(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/redirect/"))
		if err != nil || n == 0 {
			fmt.Fprint(w, "done")
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/redirect/%d", n-1), http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	args := []string{"run", "--no-summary", "--log-format", "logfmt", script("compatsmall/redirect_limit.js")}
	// logline quotes a value as logfmt needs (k6's logrus also quotes one
	// with a colon): the URL may come either way.
	warning := regexp.MustCompile(`(?m) level=warning msg="Stopped after 11 redirects and returned the redirection; pass \{ redirects: n \}` +
		` in request params or set global maxRedirects to silence this" url="?` + regexp.QuoteMeta(srv.URL+"/redirect/11") + `"?$`)

	r := invocation{args: args, env: []string{"BASE=" + srv.URL}}.run(t)
	r.wantCode(t, 0)
	if n := len(warning.FindAllString(r.stderr, -1)); n != 2 {
		t.Errorf("%d warnings matching %s, want one per request (2):\n%s", n, warning, r.stderr)
	}
	if !regexp.MustCompile(`(?m)^running \(\S+\), 00/01 VUs, 2 complete and 0 interrupted iterations$`).MatchString(r.stderr) {
		t.Errorf("the final progress does not count the 2 thrown iterations as complete:\n%s", r.stderr)
	}

	r = invocation{args: args, env: []string{"BASE=" + srv.URL, "K6_MAX_REDIRECTS=10"}}.run(t)
	r.wantCode(t, 0)
	if strings.Contains(r.stderr, "Stopped after") {
		t.Errorf("a limit K6_MAX_REDIRECTS set was warned about:\n%s", r.stderr)
	}
}
