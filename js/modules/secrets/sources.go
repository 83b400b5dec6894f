package k6secrets

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// mapSource is a source that holds its values: mock's and file's.
type mapSource struct{ values map[string]string }

// Get returns the value of key, or ErrNoValue.
func (s *mapSource) Get(key string) (string, error) {
	v, ok := s.values[key]
	if !ok {
		return "", ErrNoValue
	}
	return v, nil
}

// newMockSource reads mock's configuration, NAME=VALUE,…: each VALUE runs
// to the next comma, so a value cannot hold one, as in k6.
func newMockSource(config string, _ map[string]string) (Source, error) {
	if config == "" {
		return nil, errors.New("no NAME=VALUE given")
	}
	values := map[string]string{}
	for i, item := range strings.Split(config, ",") {
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("item %d %w", i+1, errNoEquals)
		}
		values[k] = v
	}
	return &mapSource{values}, nil
}

// newFileSource reads file's configuration, PATH or filename=PATH (PATH
// relative to the working directory), and the file it names.
func newFileSource(config string, _ map[string]string) (Source, error) {
	path := ""
	for _, item := range strings.Split(config, ",") {
		k, v, ok := strings.Cut(item, "=")
		switch {
		case !ok:
			path = item
		case k == "filename":
			path = v
		default:
			return nil, fmt.Errorf("unknown key %q: want PATH or filename=PATH", k)
		}
	}
	if path == "" {
		return nil, errors.New("no file given: want file=PATH")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	values, err := readKeyValues(f)
	if err != nil {
		return nil, fmt.Errorf("%s %w", path, err)
	}
	return &mapSource{values}, nil
}

// readKeyValues reads NAME=VALUE lines, as k6's file source does: the
// value is the rest of the line after the first '=', taken as it is
// (spaces and quotes included); a later line overrides an earlier one of
// the same key. Empty lines are skipped (k6 refuses them); a line of more
// than 64 KiB is an error rather than the end of the file.
func readKeyValues(r io.Reader) (map[string]string, error) {
	values := map[string]string{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("line %d %w", n, errNoEquals)
		}
		values[k] = v
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("line %d is longer than 64 KiB", n+1)
	} else if err != nil {
		return nil, fmt.Errorf("reading: %w", err)
	}
	return values, nil
}
