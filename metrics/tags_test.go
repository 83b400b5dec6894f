package metrics

import (
	"maps"
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
