package mock

import (
	"net/http"
	"runtime/debug"
	"strconv"
)

// The discovery routes clients of OpenAI-compatible servers (vLLM,
// llama.cpp, TGI, LiteLLM) call around their requests, each also without
// /v1:
//
//	GET /v1/models   {"object":"list","data":[{"id":"usefullatency-mock-1","object":"model","created":1767225600,"owned_by":"usefullatency"}]}
//	GET /v1/version  {"version":"1.4.0"}
//	GET /v1/health   as GET /healthz: {"status":"ok","active":N,"queued":N,"requests":N}
//
// The model listed is Config.Model, created when the server was made. A
// request may name any model: the streams report the one it names.

// models answers GET /v1/models with the one model the mock serves.
func (s *Server) models(w http.ResponseWriter, _ *http.Request) {
	b := appendString([]byte(`{"object":"list","data":[{"id":`), s.modelName())
	b = strconv.AppendInt(append(b, `,"object":"model","created":`...), s.created, 10)
	b = append(b, `,"owned_by":"usefullatency"}]}`+"\n"...)
	writeJSON(w, b)
}

// version answers GET /v1/version with Config.Version.
func (s *Server) version(w http.ResponseWriter, _ *http.Request) {
	v := s.cfg.Version
	if v == "" {
		v = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			v = bi.Main.Version
		}
	}
	writeJSON(w, append(appendString([]byte(`{"version":`), v), "}\n"...))
}

// modelName returns the model name streams report when a request names none.
func (s *Server) modelName() string {
	if s.cfg.Model != "" {
		return s.cfg.Model
	}
	return DefaultConfig().Model
}

// writeJSON answers 200 with the JSON body b.
func writeJSON(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}
