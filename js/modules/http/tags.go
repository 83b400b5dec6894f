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
	var buf [maxRequestTags]metrics.TagPair
	fixed := requestTags(ex, expect, mergedName(base, own), &buf)
	if last != nil && metrics.SameOverlay(last, base, own, fixed) {
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
		tags[t.Key] = t.Value
	}
	return tags
}

// maxRequestTags is the most request tags an exchange has.
const maxRequestTags = 8

// requestTags returns k6's request tags of ex, which override base and
// own tags, in buf: name, the URL, when name, the name the base and own
// tags give, is empty; method, url and status; expected_response only
// when there is a response callback, expect; proto, tls_version and
// error_code when the exchange has them.
func requestTags(ex *exchange, expect *statusSet, name string, buf *[maxRequestTags]metrics.TagPair) []metrics.TagPair {
	tags := buf[:0]
	if name == "" {
		tags = append(tags, metrics.TagPair{Key: "name", Value: ex.redactedURL()})
	}
	tags = append(tags, metrics.TagPair{Key: "method", Value: ex.method}, metrics.TagPair{Key: "url", Value: ex.redactedURL()}, metrics.TagPair{Key: "status", Value: metrics.StatusTag(ex.status)})
	if expect != nil {
		tags = append(tags, metrics.TagPair{Key: "expected_response", Value: strconv.FormatBool(expect.has(ex.status))})
	}
	if ex.proto != "" {
		tags = append(tags, metrics.TagPair{Key: "proto", Value: ex.proto})
	}
	if ex.tlsVersion != "" {
		tags = append(tags, metrics.TagPair{Key: "tls_version", Value: ex.tlsVersion})
	}
	if code := codeTag(errorCode(ex)); code != "" {
		tags = append(tags, metrics.TagPair{Key: "error_code", Value: code})
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
