package api

import (
	"net/http"
	"net/http/pprof"
)

// withProfiling returns h serving, when on, Go's pprof profiles of the
// running process under /debug/pprof/ as k6's --profiling-enabled does:
// the index, cmdline, profile (CPU, ?seconds=N), symbol, trace and the
// named profiles (heap, goroutine, allocs, block, mutex, threadcreate).
func withProfiling(h http.Handler, on bool) http.Handler {
	if !on {
		return h
	}
	mux := http.NewServeMux()
	mux.Handle("/", h)
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
