package usefulsse

import (
	"strconv"
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
	if c.base != nil && sameMerge(c.base, vu, own) {
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
	if c.full != nil && sameRequestTags(c.full, base, res) {
		return c.full
	}
	c.full = RequestTags(base, res)
	return c.full
}

// sameMerge reports whether tags holds exactly vu's pairs with own's over
// them.
func sameMerge(tags, vu metrics.Tags, own map[string]string) bool {
	n := 0
	for k, v := range own {
		if tv, ok := tags[k]; !ok || tv != v {
			return false
		}
		n++
	}
	for k, v := range vu {
		if _, over := own[k]; over {
			continue
		}
		if tv, ok := tags[k]; !ok || tv != v {
			return false
		}
		n++
	}
	return n == len(tags)
}

// sameRequestTags reports whether tags holds exactly RequestTags(base,
// res), without making it.
func sameRequestTags(tags, base metrics.Tags, res *sse.Result) bool {
	if !isStatus(tags["status"], res.Status) {
		return false
	}
	n := 1
	if res.ErrorCode != "" {
		if tags["error_code"] != res.ErrorCode {
			return false
		}
		n++
	}
	for k, v := range base {
		if k == "status" || (k == "error_code" && res.ErrorCode != "") {
			continue
		}
		if tv, ok := tags[k]; !ok || tv != v {
			return false
		}
		n++
	}
	return n == len(tags)
}

// isStatus reports whether s is status in decimal, without formatting it.
func isStatus(s string, status int) bool {
	if len(s) != 3 || status < 100 || status > 999 {
		return s == strconv.Itoa(status)
	}
	for i := range 3 {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return int(s[0]-'0')*100+int(s[1]-'0')*10+int(s[2]-'0') == status
}
