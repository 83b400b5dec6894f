package options

import (
	"errors"
	"strings"
	"testing"
)

// checkErrors asserts that err holds exactly one line per entry of want,
// each line containing its entry, in order; want empty means no error.
func checkErrors(t *testing.T, err error, want ...string) {
	t.Helper()
	if len(want) == 0 {
		if err != nil {
			t.Fatalf("unexpected error:\n%v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("error %d = %q, want it to contain %q", i, lines[i], w)
		}
	}
}

func joinErrs(errs []error) error { return errors.Join(errs...) }

func ptr[T any](v T) *T { return &v }
