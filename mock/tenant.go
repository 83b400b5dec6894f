package mock

import "sync"

// tenants holds one semaphore per tenant: a buffered channel whose capacity
// is the tenant's worker slots. A request holds a slot from dequeue to the
// end of its stream; blocked senders are served in FIFO order, so a tenant's
// queue time grows with its load. Lookups of known tenants take no lock.
type tenants struct {
	cfg *Config
	m   sync.Map // tenant name → chan struct{}
}

// slots returns the semaphore of the named tenant, creating it on first use.
func (t *tenants) slots(name string) chan struct{} {
	if v, ok := t.m.Load(name); ok {
		return v.(chan struct{})
	}
	n, ok := t.cfg.Tenants[name]
	if !ok {
		n = t.cfg.TenantSlots
	}
	v, _ := t.m.LoadOrStore(name, make(chan struct{}, n))
	return v.(chan struct{})
}
