package usefulsse

import (
	"sync"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/sse"
)

// tagCache keeps the tags of a VU's last request: the VU's tags with the
// request's own (base) and those with its status and error code (full).
// A request whose tags equal them takes them instead of new maps: the
// tags of pushed samples are never modified (metrics.Tags), so requests
// share equal tags. Safe from any goroutine (requestAsync records on
// others).
type tagCache struct {
	mu         sync.Mutex
	base, full metrics.Tags
}

// merged returns vu's tags with own's pairs over them: the last base when
// equal, else a new map.
func (c *tagCache) merged(vu metrics.Tags, own map[string]string) metrics.Tags {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.base != nil && metrics.SameOverlay(c.base, vu, own, nil) {
		return c.base
	}
	c.base = vu.WithAll(own)
	return c.base
}

// request returns RequestTags(base, res): the last full tags when equal,
// else a new map.
func (c *tagCache) request(base metrics.Tags, res *sse.Result) metrics.Tags {
	c.mu.Lock()
	defer c.mu.Unlock()
	fixed := [2]metrics.TagPair{{Key: "status", Value: metrics.StatusTag(res.Status)}, {Key: "error_code", Value: res.ErrorCode}}
	n := 1
	if res.ErrorCode != "" {
		n = 2
	}
	if c.full != nil && metrics.SameOverlay(c.full, base, nil, fixed[:n]) {
		return c.full
	}
	c.full = RequestTags(base, res)
	return c.full
}
