// Package api serves k6's REST API (v1) for one run: the status a
// k6-operator starter un-pauses and its probes poll, the metrics, groups
// and setup data, in k6's JSON:API documents. It only reads and steers the
// run through a runner.Control.
package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/usefullatency/usefullatency/runner"
)

// Server is the REST API listening on one address.
type Server struct {
	srv   *http.Server
	ln    net.Listener
	done  chan struct{}
	guard *access
}

// Config is how the REST API admits requests.
type Config struct {
	// Token, when not empty, must come as "Authorization: Bearer <Token>"
	// on every request but GET /ping (--api-token, K6_API_TOKEN).
	Token string
	// Log receives one WARN line per refused request (at most
	// maxRefusalLines); nil logs nothing.
	Log io.Writer
	// Profiling serves Go's pprof profiles under /debug/pprof/
	// (--profiling-enabled), behind the same access rules.
	Profiling bool
}

// Listen starts serving the REST API of ctl on addr (host:port; port 0
// picks a free one) behind its access rules (see Handler for the routes):
// the Host header must name addr (any Host when addr is an unspecified
// address such as 0.0.0.0:6565), no web page of another origin may call
// it, and cfg.Token is required when set. The error names the address
// when it cannot listen.
func Listen(addr string, ctl *runner.Control, cfg Config) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("REST API on %q: %w", addr, err)
	}
	guard := newAccess(addr, ln.Addr(), cfg.Token, &refusalLog{w: cfg.Log})
	s := &Server{
		srv: &http.Server{
			Handler:           guard.wrap(withProfiling(Handler(ctl), cfg.Profiling)),
			ReadHeaderTimeout: 10 * time.Second,
			IdleTimeout:       time.Minute,
			MaxHeaderBytes:    64 << 10,
		},
		ln:    ln,
		done:  make(chan struct{}),
		guard: guard,
	}
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = ln.Close()
		}
	}()
	return s, nil
}

// Addr returns the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Warnings returns what the operator should know about the server: that
// it listens beyond this machine without a token.
func (s *Server) Warnings() []string { return s.guard.warnings(s.Addr()) }

// Close stops the server, letting requests in flight finish for up to a
// second.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	<-s.done
	return err
}

// Handler returns the routes of the REST API, without the access rules
// of Listen: /v1/status (GET, PATCH), /v1/metrics[/{id}] and
// /v1/groups[/{id}] (GET), /v1/setup (GET, POST, PUT), /v1/teardown
// (POST), and "ok" on /ping and every other path outside /v1/, as in k6.
// Bodies are read up to MaxStatusBodySize and MaxSetupDataSize; POST
// /v1/setup and POST /v1/teardown run their function at most once each.
func Handler(ctl *runner.Control) http.Handler {
	body := newBodies()
	life := &lifecycle{ctl: ctl}
	mux := http.NewServeMux()
	route(mux, "/v1/status", methods{
		http.MethodGet:   func(w http.ResponseWriter, _ *http.Request) { writeStatus(w, ctl) },
		http.MethodPatch: func(w http.ResponseWriter, r *http.Request) { patchStatus(w, r, ctl, body) },
	})
	route(mux, "/v1/metrics", methods{http.MethodGet: func(w http.ResponseWriter, _ *http.Request) { listMetrics(w, ctl) }})
	route(mux, "/v1/metrics/{id}", methods{
		http.MethodGet: func(w http.ResponseWriter, r *http.Request) { getMetric(w, ctl, r.PathValue("id")) },
	})
	route(mux, "/v1/groups", methods{http.MethodGet: func(w http.ResponseWriter, _ *http.Request) { listGroups(w, ctl) }})
	route(mux, "/v1/groups/{id}", methods{
		http.MethodGet: func(w http.ResponseWriter, r *http.Request) { getGroup(w, ctl, r.PathValue("id")) },
	})
	route(mux, "/v1/setup", methods{
		http.MethodGet:  func(w http.ResponseWriter, _ *http.Request) { writeSetupData(w, ctl.SetupData()) },
		http.MethodPut:  func(w http.ResponseWriter, r *http.Request) { putSetup(w, r, ctl, body) },
		http.MethodPost: life.runSetup,
	})
	route(mux, "/v1/teardown", methods{http.MethodPost: life.runTeardown})
	mux.HandleFunc("/v1/", notFound)
	mux.HandleFunc("/ping", ping)
	mux.HandleFunc("/", ping)
	return mux
}

// methods maps the HTTP methods of one path to their handlers.
type methods map[string]http.HandlerFunc

// route registers path on mux; another method than those of byMethod is
// answered 405.
func route(mux *http.ServeMux, path string, byMethod methods) {
	mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		if h, ok := byMethod[r.Method]; ok {
			h(w, r)
			return
		}
		writeError(w, http.StatusMethodNotAllowed, "Method Not Allowed", r.Method+" "+path+" is not supported")
	})
}

// ping answers "ok": the liveness of the process.
func ping(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ok"))
}

// notFound answers a path under /v1/ that names no resource.
func notFound(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, "Not Found", "no resource at "+r.URL.Path)
}
