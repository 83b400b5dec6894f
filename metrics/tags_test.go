package metrics

import (
	"maps"
	"strconv"
	"testing"
)

// TestTagsWith checks that With and WithAll add pairs to a copy, the later
// pair winning a key both have, and leave the receiver as it was.
func TestTagsWith(t *testing.T) {
	base := Tags{"scenario": "default", "name": "base"}
	one := base.With("status", "200")
	all := base.WithAll(map[string]string{"name": "chat", "bucket": "qa"})
	if want := (Tags{"scenario": "default", "name": "base", "status": "200"}); !maps.Equal(one, want) {
		t.Errorf("With: %v, want %v", one, want)
	}
	if want := (Tags{"scenario": "default", "name": "chat", "bucket": "qa"}); !maps.Equal(all, want) {
		t.Errorf("WithAll: %v, want %v", all, want)
	}
	if want := (Tags{"scenario": "default", "name": "base"}); !maps.Equal(base, want) {
		t.Errorf("the receiver changed: %v", base)
	}
	if got := base.WithAll(nil); !maps.Equal(got, base) {
		t.Errorf("WithAll(nil): %v, want %v", got, base)
	}
}

// TestStatusTag checks the status tags of statuses in and out of the
// table.
func TestStatusTag(t *testing.T) {
	for _, s := range []int{0, 1, 99, 100, 200, 404, 599, 600, 999, -1} {
		if got := StatusTag(s); got != strconv.Itoa(s) {
			t.Errorf("StatusTag(%d) = %q", s, got)
		}
	}
}
