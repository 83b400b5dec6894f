package mock

import "strings"

// Plan returns the schedule the server follows for a request of dialect d
// with this body under cfg, for the tests (those of package mock_test
// too) to compare with what a client received. A body without a mock seed
// (mock_seed, or seed in the business dialect) uses cfg.Seed (the server instead derives a fresh seed per request and
// reports it in the X-Usefullatency-Seed header).
// Invalid configurations and bodies return the error the server would
// answer with (*RequestError for a 400).
func Plan(d Dialect, body []byte, cfg Config) (Schedule, error) {
	if err := cfg.Validate(); err != nil {
		return Schedule{}, err
	}
	global, _ := parseFaults(cfg.Faults, 0)
	req, err := parseRequest(d, body, "", global)
	if err != nil {
		return Schedule{}, err
	}
	if !req.hasSeed {
		req.seed = cfg.Seed
	}
	return *plan(d, &req, &cfg), nil
}

// Text returns the visible text of the schedule (malformed events
// included).
func (s *Schedule) Text() string {
	var b strings.Builder
	for i := range s.Events {
		if e := &s.Events[i]; e.Type == "delta" || e.Type == "content" || e.Type == "text" || e.Block == "text_delta" {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// TenantCount returns the number of tenants in the server's table.
func (s *Server) TenantCount() int {
	s.tenants.mu.Lock()
	defer s.tenants.mu.Unlock()
	return len(s.tenants.m)
}
