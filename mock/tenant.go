package mock

import "sync"

// tenants holds one semaphore per tenant: a buffered channel whose capacity
// is the tenant's worker slots. A request holds a slot from dequeue to the
// end of its stream; blocked senders are served in FIFO order, so a tenant's
// queue time grows with its load.
//
// The table holds only tenants with a request in flight (queued or
// streaming): a tenant's entry is dropped when its last request ends, so
// requests naming ever new tenants cannot grow the server's memory; the
// table never has more entries than there are open requests.
type tenants struct {
	cfg *Config
	mu  sync.Mutex
	m   map[string]*tenant
}

// tenant is one tenant's semaphore and the number of requests using it.
type tenant struct {
	sem   chan struct{}
	users int
}

// acquire returns the semaphore of the named tenant, creating it on first
// use; the caller must call release with the same name when done with it.
func (t *tenants) acquire(name string) chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.m[name]
	if !ok {
		n, ok := t.cfg.Tenants[name]
		if !ok {
			n = t.cfg.TenantSlots
		}
		if t.m == nil {
			t.m = make(map[string]*tenant)
		}
		e = &tenant{sem: make(chan struct{}, n)}
		t.m[name] = e
	}
	e.users++
	return e.sem
}

// release ends a request's use of the named tenant's semaphore, dropping
// the tenant from the table when no request uses it any more.
func (t *tenants) release(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.m[name]; e != nil {
		if e.users--; e.users == 0 {
			delete(t.m, name)
		}
	}
}
