package k6secrets

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/js/modules"
)

// DefaultSource is the name of the default source, the one secrets.get
// reads.
const DefaultSource = "default"

// Source is one secret source: Get returns the value of key, or an error
// when it has none (ErrNoValue for mock and file). It must be safe for
// concurrent use; Manager asks it once per key while it answers.
type Source interface {
	Get(key string) (string, error)
}

// ErrNoValue is the error of a mock or file source without the key asked
// for; its text is k6's.
var ErrNoValue = errors.New("no value")

// errNoSources is k6's error for a lookup when no source is configured.
var errNoSources = errors.New("no secret sources are configured")

// UnknownSourceError is the error of a lookup in a source that is not
// configured; its text is k6's.
type UnknownSourceError string

func (e UnknownSourceError) Error() string {
	return fmt.Sprintf("no secret source with name %q is configured", string(e))
}

// Manager holds the sources of a run by name and the values they handed
// out: each value is looked up once per source and key, kept for the
// run, and masked by Redact's writers from the moment it is returned.
// A nil or empty Manager has no source. It is safe for concurrent use.
type Manager struct {
	sources map[string]*cachedSource
	values  redact.Values
}

var _ modules.Secrets = (*Manager)(nil)

// NewManager returns a Manager of sources, by name. The one called
// defaultName is also the default source, under DefaultSource, and shares
// its values; "" names none (a source may still be called DefaultSource).
func NewManager(sources map[string]Source, defaultName string) *Manager {
	m := &Manager{sources: make(map[string]*cachedSource, len(sources)+1)}
	for name, src := range sources {
		m.sources[name] = &cachedSource{src: src, lookups: map[string]*lookup{}}
	}
	if cs, ok := m.sources[defaultName]; ok {
		m.sources[DefaultSource] = cs
	}
	return m
}

// Get returns the value of key in the source called source and adds it to
// the values Redact masks before returning it. A failed lookup is not
// kept: the next Get of the key asks the source again.
func (m *Manager) Get(source, key string) (string, error) {
	if m == nil || len(m.sources) == 0 {
		return "", errNoSources
	}
	cs, ok := m.sources[source]
	if !ok {
		return "", UnknownSourceError(source)
	}
	return cs.get(key, m.values.Add)
}

// Redact returns w masking, in every write, each value Get has returned
// (see redact.Values.Writer); w itself when there is no source.
func (m *Manager) Redact(w io.Writer) io.Writer {
	if m == nil || len(m.sources) == 0 {
		return w
	}
	return m.values.Writer(w)
}

// cachedSource is a source with the lookups of its keys: done or under
// way, so that VUs asking for one key together cause one lookup.
type cachedSource struct {
	src     Source
	mu      sync.Mutex
	lookups map[string]*lookup
}

// lookup is the lookup of one key; done is closed once value and err are
// set.
type lookup struct {
	done  chan struct{}
	value string
	err   error
}

// get returns the value of key, asking the source unless another call did
// or does; found sees a value before any caller gets it.
func (cs *cachedSource) get(key string, found func(string)) (string, error) {
	cs.mu.Lock()
	l, ok := cs.lookups[key]
	if ok {
		cs.mu.Unlock()
		<-l.done
		return l.value, l.err
	}
	l = &lookup{done: make(chan struct{})}
	cs.lookups[key] = l
	cs.mu.Unlock()

	l.value, l.err = cs.src.Get(key)
	if l.err == nil {
		found(l.value)
	} else {
		cs.mu.Lock()
		delete(cs.lookups, key)
		cs.mu.Unlock()
	}
	close(l.done)
	return l.value, l.err
}
