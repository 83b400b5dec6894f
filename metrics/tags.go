package metrics

import "strconv"

// TagPair is one tag.
type TagPair struct{ Key, Value string }

// SameOverlay reports whether last holds exactly the tags made of base,
// own and fixed, each over the one before: fixed over own over base.
// Modules that share equal tags between requests (metrics.Tags) compare
// with it instead of making the tags again.
func SameOverlay(last, base Tags, own map[string]string, fixed []TagPair) bool {
	n := len(fixed)
	for _, t := range fixed {
		if v, ok := last[t.Key]; !ok || v != t.Value {
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

// isFixed reports whether key is one of fixed's.
func isFixed(fixed []TagPair, key string) bool {
	for _, t := range fixed {
		if t.Key == key {
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

// StatusTag returns the status tag of status: its decimal form.
func StatusTag(status int) string {
	if status >= 0 && status < len(statusTags) {
		return statusTags[status]
	}
	return strconv.Itoa(status)
}
