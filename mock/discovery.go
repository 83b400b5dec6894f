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
//
// Under a profile, owned_by is its server's (vllm, llamacpp, system,
// anthropic; TGI's is the model's name), GET /v1/health answers as its
// server's health route (vLLM and TGI: 200 with an empty body; llama.cpp:
// {"status":"ok"}), and the tgi profile adds TGI's GET /info:
//
//	GET /info        {"model_id":"usefullatency-mock-1","model_pipeline_tag":"text-generation","max_concurrent_requests":100,"router":"text-generation-router","version":"1.4.0"}

// models answers GET /v1/models with the one model the mock serves.
func (s *Server) models(w http.ResponseWriter, _ *http.Request) {
	owner := s.profile.modelOwner
	if owner == "" {
		owner = s.modelName()
	}
	b := appendString([]byte(`{"object":"list","data":[{"id":`), s.modelName())
	b = strconv.AppendInt(append(b, `,"object":"model","created":`...), s.created, 10)
	b = append(appendString(append(b, `,"owned_by":`...), owner), "}]}\n"...)
	writeJSON(w, b)
}

// version answers GET /v1/version with Config.Version.
func (s *Server) version(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, append(appendString([]byte(`{"version":`), s.versionName()), "}\n"...))
}

// versionName returns Config.Version, else the main module's version.
func (s *Server) versionName() string {
	if s.cfg.Version != "" {
		return s.cfg.Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// health answers GET /v1/health and GET /health as the profile's server
// does.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	switch s.profile.health {
	case healthEmpty:
		w.WriteHeader(http.StatusOK)
	case healthOK:
		writeJSON(w, []byte(`{"status":"ok"}`+"\n"))
	default:
		s.healthz(w, r)
	}
}

// info answers TGI's GET /info with the model and the capacity.
func (s *Server) info(w http.ResponseWriter, _ *http.Request) {
	b := appendString([]byte(`{"model_id":`), s.modelName())
	b = appendInt(append(b, `,"model_pipeline_tag":"text-generation","max_concurrent_requests":`...), s.cfg.ModelSlots)
	b = appendString(append(b, `,"router":"text-generation-router","version":`...), s.versionName())
	writeJSON(w, append(b, "}\n"...))
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
