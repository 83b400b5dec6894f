package mock

import "strings"

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
