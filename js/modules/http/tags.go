package k6http

import (
	"strconv"

	"github.com/usefullatency/usefullatency/metrics"
)

// exchangeTags are the tags of an exchange's samples: base (the VU's tags:
// scenario, group, …), the request's own tags, then k6's request tags
// (requestTags). When they equal last, the tags of the VU's previous
// exchange, last itself is returned and nothing is made: the tags of
// pushed samples are never modified, so exchanges share equal tags.
func exchangeTags(base metrics.Tags, own map[string]string, ex *exchange, expect *statusSet, last metrics.Tags) metrics.Tags {
	var buf [maxRequestTags]tagPair
	fixed := requestTags(ex, expect, mergedName(base, own), &buf)
	if last != nil && sameTags(last, base, own, fixed) {
		return last
	}
	tags := make(metrics.Tags, len(base)+len(own)+len(fixed))
	for k, v := range base {
		tags[k] = v
	}
	for k, v := range own {
		tags[k] = v
	}
	for _, t := range fixed {
		tags[t.key] = t.value
	}
	return tags
}

// tagPair is one tag.
type tagPair struct{ key, value string }

// maxRequestTags is the most request tags an exchange has.
const maxRequestTags = 8

// requestTags returns k6's request tags of ex, which override base and
// own tags, in buf: name, the URL, when name, the name the base and own
// tags give, is empty; method, url and status; expected_response only
// when there is a response callback, expect; proto, tls_version and
// error_code when the exchange has them.
func requestTags(ex *exchange, expect *statusSet, name string, buf *[maxRequestTags]tagPair) []tagPair {
	tags := buf[:0]
	if name == "" {
		tags = append(tags, tagPair{"name", ex.redactedURL()})
	}
	tags = append(tags, tagPair{"method", ex.method}, tagPair{"url", ex.redactedURL()}, tagPair{"status", statusTag(ex.status)})
	if expect != nil {
		tags = append(tags, tagPair{"expected_response", strconv.FormatBool(expect.has(ex.status))})
	}
	if ex.proto != "" {
		tags = append(tags, tagPair{"proto", ex.proto})
	}
	if ex.tlsVersion != "" {
		tags = append(tags, tagPair{"tls_version", ex.tlsVersion})
	}
	if code := codeTag(errorCode(ex)); code != "" {
		tags = append(tags, tagPair{"error_code", code})
	}
	return tags
}

// mergedName returns the name tag of the base and own tags: own's when it
// has one (even empty), else base's.
func mergedName(base metrics.Tags, own map[string]string) string {
	if name, ok := own["name"]; ok {
		return name
	}
	return base["name"]
}

// sameTags reports whether last holds exactly the tags exchangeTags
// would make of base, own and fixed: fixed over own over base.
func sameTags(last, base metrics.Tags, own map[string]string, fixed []tagPair) bool {
	n := len(fixed)
	for _, t := range fixed {
		if v, ok := last[t.key]; !ok || v != t.value {
			return false
		}
	}
	for k, v := range own {
		if isFixed(fixed, k) {
			continue
		}
		if lv, ok := last[k]; !ok || lv != v {
			return false
		}
		n++
	}
	for k, v := range base {
		if _, ok := own[k]; ok || isFixed(fixed, k) {
			continue
		}
		if lv, ok := last[k]; !ok || lv != v {
			return false
		}
		n++
	}
	return n == len(last)
}

// isFixed reports whether key is one of the request tags fixed.
func isFixed(fixed []tagPair, key string) bool {
	for _, t := range fixed {
		if t.key == key {
			return true
		}
	}
	return false
}

// statusTags are the status tags of the statuses 0 to 599, made once.
var statusTags = func() (tags [600]string) {
	for i := range tags {
		tags[i] = strconv.Itoa(i)
	}
	return tags
}()

// statusTag returns the status tag of status: its decimal form.
func statusTag(status int) string {
	if status >= 0 && status < len(statusTags) {
		return statusTags[status]
	}
	return strconv.Itoa(status)
}
