package mock

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// maxBody is the largest accepted request body, in bytes (1 MiB).
const maxBody = 1 << 20

// SeedHeader is the response header carrying the mock seed a request was
// served with (the seed of its timings); sending it back as a request header
// (or as the body's mock_seed) with the same body replays the request
// exactly.
const SeedHeader = "X-Usefullatency-Seed"

// Server is the simulated assistant. Its methods are safe for concurrent use.
type Server struct {
	cfg     Config
	err     error // the configuration's problems, if any
	global  faultSet
	tenants tenants
	model   *slots // nil for unlimited model slots
	seq     atomic.Uint64
	stats   stats
	handler http.Handler
	// profile is Config.Profile's (aftersales when the name is unknown,
	// which makes the configuration invalid).
	profile *profile
	// created is when the server was made, in Unix seconds: the "created"
	// of the model GET /v1/models lists.
	created int64

	mu  sync.Mutex
	srv *http.Server
}

// New returns a server with the configuration cfg (copied). An invalid cfg
// makes Start return its problems and Handler answer 500 to everything;
// call cfg.Validate first to find out earlier.
func New(cfg Config) *Server {
	s := &Server{cfg: cfg, created: time.Now().Unix()}
	s.cfg.Tenants = make(map[string]int, len(cfg.Tenants))
	for k, v := range cfg.Tenants {
		s.cfg.Tenants[k] = v
	}
	s.cfg.Faults = append([]string(nil), cfg.Faults...)
	s.tenants.cfg = &s.cfg
	var ok bool
	if s.profile, ok = lookupProfile(s.cfg.Profile); !ok {
		s.profile = profiles[ProfileAftersales]
	}
	if s.err = s.cfg.Validate(); s.err == nil {
		s.global, _ = parseFaults(s.cfg.Faults, 0)
		s.model = newSlots(s.cfg.ModelSlots)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /chat", s.endpoint(Business))
	mux.HandleFunc("GET /chat", s.chatPage)
	mux.HandleFunc("POST /v1/messages", s.endpoint(Anthropic))
	mux.HandleFunc("GET /healthz", s.healthz)
	// The OpenAI-compatible routes, also without /v1 for clients whose base
	// URL lacks it.
	for _, v := range [...]string{"/v1", ""} {
		mux.HandleFunc("POST "+v+"/chat/completions", s.endpoint(OpenAI))
		mux.HandleFunc("POST "+v+"/completions", s.endpoint(Completions))
		mux.HandleFunc("GET "+v+"/models", s.models)
		mux.HandleFunc("GET "+v+"/version", s.version)
		mux.HandleFunc("GET "+v+"/health", s.health)
	}
	if s.profile.info {
		mux.HandleFunc("GET /info", s.info)
	}
	s.handler = mux
	return s
}

// Handler returns the server's HTTP handler: POST /chat, GET /chat (the
// chat page), POST /v1/chat/completions, POST /v1/completions, POST /v1/messages,
// GET /v1/models, GET /v1/version, GET /v1/health and GET /healthz, the
// /v1 routes also without /v1, and GET /info under the tgi profile. The disconnect fault aborts a stream with
// panic(http.ErrAbortHandler), which net/http's server turns into a closed
// connection; serve the handler with net/http (or Start).
func (s *Server) Handler() http.Handler {
	if s.err != nil {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			writeError(w, s.profile, Business, http.StatusInternalServerError, s.err.Error())
		})
	}
	return s.handler
}

// Start listens on addr (e.g. "127.0.0.1:0" for a free port), serves in the
// background and returns the base URL, e.g. "http://127.0.0.1:41234". A
// base URL names the loopback address for an unspecified host (":8000",
// "0.0.0.0:8000"), so that it can be dialled.
func (s *Server) Start(addr string) (string, error) {
	if s.err != nil {
		return "", s.err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		return "", errors.New("mock: server already started")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	s.srv = &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: msDuration(s.cfg.ReadHeaderTimeoutMS),
		IdleTimeout:       msDuration(s.cfg.IdleTimeoutMS),
	}
	go s.srv.Serve(ln)
	return baseURL(ln.Addr()), nil
}

// baseURL returns the URL of a listener's address, with 127.0.0.1 in place
// of an unspecified IP (Go's wildcard TCP listeners are dual-stack).
func baseURL(addr net.Addr) string {
	if a, ok := addr.(*net.TCPAddr); ok && a.IP.IsUnspecified() {
		return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(a.Port))
	}
	return "http://" + addr.String()
}

// Close stops a started server at once, cutting the open streams.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv == nil {
		return nil
	}
	return s.srv.Close()
}

// Profile returns the name of the server's profile: Config.Profile, or
// aftersales when that is empty.
func (s *Server) Profile() string { return s.profile.name }

// Stats returns a snapshot of the server's counters.
func (s *Server) Stats() Stats { return s.stats.snapshot() }

// endpoint returns the stream handler of dialect d.
func (s *Server) endpoint(d Dialect) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		arrived := time.Now()
		s.stats.requests.Add(1)
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			return
		}
		if len(body) > maxBody {
			writeError(w, s.profile, d, s.profile.badRequestStatus(d), "request body larger than 1 MiB")
			return
		}
		req, err := parseRequest(d, body, r.Header.Get(SeedHeader), s.global)
		if re := (*RequestError)(nil); errors.As(err, &re) {
			writeError(w, s.profile, d, s.profile.badRequestStatus(d), re.Msg)
			return
		}
		if !req.hasSeed {
			req.seed = s.nextSeed()
		}
		w.Header().Set(SeedHeader, strconv.FormatInt(req.seed, 10))
		if req.faults.has(FaultRenderDelay) {
			w.Header().Set(RenderDelayHeader, strconv.FormatFloat(s.cfg.RenderDelayMS, 'f', -1, 64))
		}
		sched := plan(d, &req, &s.cfg)
		sched.Created = arrived.Unix()
		if sched.Status != http.StatusOK {
			writeHTTPFault(w, s.profile, d, sched.Status)
			return
		}
		st := stream{srv: s, w: w, rc: http.NewResponseController(w), ctx: r.Context(), sched: sched, arrived: arrived}
		st.run()
	}
}

// queueKeepAlive returns the interval of the heartbeats a request of
// dialect d gets while it waits for its slots, 0 for none: the profile's
// keep-alive, except for Anthropic streams that open at the first token,
// since no ping may precede their message_start.
func (s *Server) queueKeepAlive(d Dialect) time.Duration {
	if d == Anthropic && s.profile.openAtFirstToken {
		return 0
	}
	return s.profile.keepAlive(&s.cfg)
}

// nextSeed derives the seed of the next request without one from
// Config.Seed and the request's arrival number (splitmix64), as a
// non-negative int64.
func (s *Server) nextSeed() int64 {
	z := uint64(s.cfg.Seed) + s.seq.Add(1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return int64((z ^ z>>31) >> 1)
}

// healthz answers GET /healthz (and, under the profiles whose health
// routes have them, GET /v1/health and GET /health) with the live counters.
func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	st := s.stats.snapshot()
	b := append([]byte(`{"status":"ok","active":`), strconv.FormatInt(st.Active, 10)...)
	b = append(append(b, `,"queued":`...), strconv.FormatInt(st.Queued, 10)...)
	b = append(append(b, `,"requests":`...), strconv.FormatInt(st.Requests, 10)...)
	writeJSON(w, append(b, "}\n"...))
}
