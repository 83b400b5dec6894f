package k6http

import (
	"maps"
	"reflect"
	"strconv"
	"testing"

	"github.com/usefullatency/usefullatency/metrics"
)

// builtTags builds the tags of an exchange as exchangeTags did before it
// shared equal ones: base, then own, then k6's request tags.
func builtTags(base metrics.Tags, own map[string]string, ex *exchange, expect *statusSet) metrics.Tags {
	tags := metrics.Tags{}
	maps.Copy(tags, base)
	maps.Copy(tags, own)
	if tags["name"] == "" {
		tags["name"] = ex.redactedURL()
	}
	tags["method"], tags["url"], tags["status"] = ex.method, ex.redactedURL(), strconv.Itoa(ex.status)
	if expect != nil {
		tags["expected_response"] = strconv.FormatBool(expect.has(ex.status))
	}
	if ex.proto != "" {
		tags["proto"] = ex.proto
	}
	if ex.tlsVersion != "" {
		tags["tls_version"] = ex.tlsVersion
	}
	if code := codeTag(errorCode(ex)); code != "" {
		tags["error_code"] = code
	}
	return tags
}

// TestExchangeTagsShared checks that the tags of an exchange are those
// built from its base, own and request tags, and that they are the
// previous exchange's very map exactly when that one holds the same
// tags: for every pair of a set of exchanges that differ by one tag or
// by where a tag comes from.
func TestExchangeTagsShared(t *testing.T) {
	base := metrics.Tags{"scenario": "s", "group": "::g"}
	ok := &exchange{method: "GET", url: "http://h/a?token=x", status: 200, proto: "HTTP/1.1"}
	cases := []struct {
		name   string
		base   metrics.Tags
		own    map[string]string
		ex     *exchange
		expect *statusSet
	}{
		{"plain", base, nil, ok, defaultExpected},
		{"plain again", metrics.Tags{"scenario": "s", "group": "::g"}, map[string]string{}, ok, defaultExpected},
		{"no callback", base, nil, ok, nil},
		{"other status", base, nil, &exchange{method: "GET", url: "http://h/a?token=x", status: 404, proto: "HTTP/1.1"}, defaultExpected},
		{"other method", base, nil, &exchange{method: "HEAD", url: "http://h/a?token=x", status: 200, proto: "HTTP/1.1"}, defaultExpected},
		{"other URL", base, nil, &exchange{method: "GET", url: "http://h/b", status: 200, proto: "HTTP/1.1", tagURL: "http://h/b"}, defaultExpected},
		{"failed", base, nil, &exchange{method: "GET", url: "http://h/a?token=x", errorCode: codeTimeout}, defaultExpected},
		{"TLS", base, nil, &exchange{method: "GET", url: "http://h/a?token=x", status: 200, proto: "HTTP/2.0", tlsVersion: "tls1.3"}, defaultExpected},
		{"own name", base, map[string]string{"name": "n"}, ok, defaultExpected},
		{"empty own name", metrics.Tags{"scenario": "s", "group": "::g", "name": "b"}, map[string]string{"name": ""}, ok, defaultExpected},
		{"base name", metrics.Tags{"scenario": "s", "group": "::g", "name": "b"}, nil, ok, defaultExpected},
		{"own tag", base, map[string]string{"team": "a"}, ok, defaultExpected},
		{"own tag over base", base, map[string]string{"group": "::g"}, ok, defaultExpected},
		{"own tag over base, other value", base, map[string]string{"group": "::h"}, ok, defaultExpected},
		{"own request tag", base, map[string]string{"method": "X", "proto": "p"}, ok, defaultExpected},
		{"base request tag", metrics.Tags{"scenario": "s", "group": "::g", "status": "1"}, nil, ok, defaultExpected},
		{"base tag kept where the exchange has none", metrics.Tags{"scenario": "s", "group": "::g", "tls_version": "v"}, nil, ok, defaultExpected},
		{"other base", metrics.Tags{"scenario": "t", "group": "::g"}, nil, ok, defaultExpected},
		{"fewer base tags", metrics.Tags{"scenario": "s"}, nil, ok, defaultExpected},
	}
	for _, prev := range cases {
		last := exchangeTags(prev.base, prev.own, prev.ex, prev.expect, nil)
		if want := builtTags(prev.base, prev.own, prev.ex, prev.expect); !maps.Equal(last, want) {
			t.Fatalf("%s: tags %v, want %v", prev.name, last, want)
		}
		for _, c := range cases {
			got := exchangeTags(c.base, c.own, c.ex, c.expect, last)
			want := builtTags(c.base, c.own, c.ex, c.expect)
			shared := reflect.ValueOf(got).Pointer() == reflect.ValueOf(last).Pointer()
			if !maps.Equal(got, want) || shared != maps.Equal(want, last) {
				t.Errorf("%s after %s: tags %v (shared %v), want %v", c.name, prev.name, got, shared, want)
			}
		}
	}
}
