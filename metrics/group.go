package metrics

import (
	"crypto/md5"
	"encoding/hex"
	"sort"
	"sync"
)

// GroupSeparator joins group names in a group path, as k6 does ("::a::b").
const GroupSeparator = "::"

// Group is a node of the tree of groups and checks a script creates. Counts
// are updated concurrently by VUs. The root group has an empty name and path.
type Group struct {
	Name, Path, ID string
	Parent         *Group

	mu     sync.Mutex
	groups map[string]*Group
	order  []*Group
	checks map[string]*Check
	corder []*Check
}

// Check counts the passes and fails of one named check in one group.
type Check struct {
	Name, Path, ID string
	Group          *Group

	mu            sync.Mutex
	passes, fails int64
}

// NewRootGroup returns the root of a group tree.
func NewRootGroup() *Group { return &Group{ID: hashID("")} }

func hashID(path string) string {
	sum := md5.Sum([]byte(path))
	return hex.EncodeToString(sum[:])
}

// Group returns the child group called name, creating it on first use.
func (g *Group) Group(name string) *Group {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c, ok := g.groups[name]; ok {
		return c
	}
	if g.groups == nil {
		g.groups = make(map[string]*Group)
	}
	path := g.Path + GroupSeparator + name
	c := &Group{Name: name, Path: path, ID: hashID(path), Parent: g}
	g.groups[name] = c
	g.order = append(g.order, c)
	return c
}

// Check returns the check called name in g, creating it on first use.
func (g *Group) Check(name string) *Check {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c, ok := g.checks[name]; ok {
		return c
	}
	if g.checks == nil {
		g.checks = make(map[string]*Check)
	}
	path := g.Path + GroupSeparator + name
	c := &Check{Name: name, Path: path, ID: hashID(path), Group: g}
	g.checks[name] = c
	g.corder = append(g.corder, c)
	return c
}

// Groups returns the child groups in creation order.
func (g *Group) Groups() []*Group {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]*Group(nil), g.order...)
}

// Checks returns the checks of g in creation order.
func (g *Group) Checks() []*Check {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]*Check(nil), g.corder...)
}

// Record counts one result of the check.
func (c *Check) Record(pass bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if pass {
		c.passes++
	} else {
		c.fails++
	}
}

// Add counts passes and fails at once, as when results of several runs are
// merged.
func (c *Check) Add(passes, fails int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.passes += passes
	c.fails += fails
}

// Counts returns the passes and fails so far.
func (c *Check) Counts() (passes, fails int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.passes, c.fails
}

// SortedNames returns the keys of m sorted; a helper for stable output.
func SortedNames[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
