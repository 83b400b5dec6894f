package usefulsse

import (
	"maps"
	"reflect"
	"testing"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/sse"
)

// same reports whether a and b are one map.
func same(a, b metrics.Tags) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// A VU's requests with equal tags share one map; a request whose tags
// differ in any pair, or in their number, gets a map of its own, with the
// request's own tags over the VU's.
func TestTagCacheMerged(t *testing.T) {
	var c tagCache
	vu := metrics.Tags{"scenario": "chat", "group": ""}
	own := map[string]string{"name": "u", "method": "POST", "bucket": "qa"}
	first := c.merged(vu, own)
	want := metrics.Tags{"scenario": "chat", "group": "", "name": "u", "method": "POST", "bucket": "qa"}
	if !maps.Equal(first, want) {
		t.Fatalf("merged = %v, want %v", first, want)
	}
	if again := c.merged(vu, maps.Clone(own)); !same(again, first) {
		t.Error("equal tags made a new map, want the last one")
	}
	for _, tc := range []struct {
		name string
		vu   metrics.Tags
		own  map[string]string
		want metrics.Tags
	}{
		{"another value", vu, map[string]string{"name": "u", "method": "POST", "bucket": "code"},
			metrics.Tags{"scenario": "chat", "group": "", "name": "u", "method": "POST", "bucket": "code"}},
		{"one tag fewer", vu, map[string]string{"name": "u", "method": "POST"},
			metrics.Tags{"scenario": "chat", "group": "", "name": "u", "method": "POST"}},
		{"own over the VU's", vu, map[string]string{"name": "u", "method": "POST", "scenario": "mine"},
			metrics.Tags{"scenario": "mine", "group": "", "name": "u", "method": "POST"}},
		{"a VU tag more", metrics.Tags{"scenario": "chat", "group": "", "vu": "1"}, map[string]string{"name": "u", "method": "POST", "scenario": "mine"},
			metrics.Tags{"scenario": "mine", "group": "", "vu": "1", "name": "u", "method": "POST"}},
	} {
		last := c.merged(vu, own)
		got := c.merged(tc.vu, tc.own)
		if same(got, last) || !maps.Equal(got, tc.want) {
			t.Errorf("%s: merged = %v (the last map: %v), want a new %v", tc.name, got, same(got, last), tc.want)
		}
		if !maps.Equal(last, want) {
			t.Fatalf("%s: the last request's tags changed to %v", tc.name, last)
		}
	}
}

// A request's full tags are shared while its base, status and error code
// are the same; each change makes new tags equal to RequestTags'.
func TestTagCacheRequest(t *testing.T) {
	var c tagCache
	base := metrics.Tags{"name": "u", "method": "POST"}
	ok := &sse.Result{Status: 200}
	first := c.request(base, ok)
	if again := c.request(maps.Clone(base), &sse.Result{Status: 200}); !same(again, first) {
		t.Error("equal request tags made a new map, want the last one")
	}
	for _, tc := range []struct {
		name string
		base metrics.Tags
		res  *sse.Result
	}{
		{"another status", base, &sse.Result{Status: 503}},
		{"no response", base, &sse.Result{Status: 0, ErrorCode: "1211"}},
		{"an error code", base, &sse.Result{Status: 200, ErrorCode: "1000"}},
		{"another error code", base, &sse.Result{Status: 200, ErrorCode: "1001"}},
		{"no error code again", base, ok},
		{"a status tag of the request's own", metrics.Tags{"name": "u", "method": "POST", "status": "x"}, ok},
		{"another base", metrics.Tags{"name": "v", "method": "POST"}, ok},
	} {
		last := c.request(base, &sse.Result{Status: 201})
		got := c.request(tc.base, tc.res)
		if want := RequestTags(tc.base, tc.res); same(got, last) || !maps.Equal(got, want) {
			t.Errorf("%s: tags %v, want a new %v", tc.name, got, want)
		}
	}
}
