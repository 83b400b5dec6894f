package aggregate

import (
	"net/http"
	"strings"
	"sync"
	"time"
)

// stopClient is the client that stops runners: it never follows a
// redirect (a runner's answer cannot send the stop elsewhere) and goes to
// the runner directly, never through a proxy.
func stopClient(c *http.Client) *http.Client {
	if c == nil {
		c = &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 1, IdleConnTimeout: time.Second}}
	} else {
		copied := *c
		c = &copied
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c
}

// abort stops every runner not stopped yet through its REST API; runners
// that post later are stopped at the next evaluation.
func (a *Aggregator) abort(crossed []string) {
	a.mu.Lock()
	first := !a.aborted
	a.aborted = true
	var targets []*runnerState
	for _, st := range a.runners {
		if !st.stopped && !st.final {
			st.stopped = true
			targets = append(targets, st)
		}
	}
	a.mu.Unlock()
	if first {
		a.logLine("WARN aggregate: thresholds on metrics '" + strings.Join(crossed, ", ") + "' crossed with abortOnFail: stopping every runner")
	}
	var wg sync.WaitGroup
	for _, st := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.stop(st.api)
		}()
	}
	wg.Wait()
}

// stop sends PATCH /v1/status {stopped: true} to one runner's REST API:
// api is the address its posts came from with the port it announced, never
// an address a post names.
func (a *Aggregator) stop(api string) {
	if api == "" {
		a.warnOnce("noapi", "a runner serves no REST API (--address): it cannot be stopped")
		return
	}
	req, err := http.NewRequest(http.MethodPatch, "http://"+api+statusPath, strings.NewReader(stopBody))
	if err != nil {
		a.warnOnce("stop:"+api, "stopping the runner at %s: %v", api, err)
		return
	}
	req.Header.Set("Content-Type", "application/json")
	if a.cfg.RunnerAPIToken != "" {
		req.Header.Set("Authorization", "Bearer "+a.cfg.RunnerAPIToken)
	}
	resp, err := a.cfg.Client.Do(req)
	if err != nil {
		a.warnOnce("stop:"+api, "stopping the runner at %s: %v", api, err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		a.warnOnce("stop:"+api, "stopping the runner at %s: %s", api, resp.Status)
	}
}
