package api

import (
	"fmt"
	"io"
	"net/http"
	"sync"
)

// maxRefusalLines is how many refused requests are logged, one WARN line
// each, before the log says that further ones are not.
const maxRefusalLines = 20

// refusalLog notes refused requests on the run's log, so that an operator
// sees that something tried to reach the REST API; a flood costs at most
// maxRefusalLines+1 lines. The nil log and one without a writer note
// nothing.
type refusalLog struct {
	w  io.Writer
	mu sync.Mutex
	n  int
}

// note logs one refused request: method, path, client address, status
// and why. Values a client chose are quoted, so they cannot forge lines.
func (l *refusalLog) note(r *http.Request, status int, why string) {
	if l == nil || l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	switch {
	case l.n <= maxRefusalLines:
		fmt.Fprintf(l.w, "WARN REST API: refused %s %q from %s with %d: %s\n", r.Method, r.URL.Path, r.RemoteAddr, status, why)
	case l.n == maxRefusalLines+1:
		fmt.Fprintf(l.w, "WARN REST API: more than %d requests refused; further ones are not logged\n", maxRefusalLines)
	}
}
