package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// checkWritable reports, before the test starts, why a file the run writes
// only at its end (the summary export) could not be written at path: its
// directory is missing, is not a directory or is not writable, or path is a
// directory. It creates nothing that outlives the check.
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("cannot write %s: directory %s does not exist", path, dir)
	case err != nil:
		return fmt.Errorf("cannot write %s: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
	}
	f, err := os.CreateTemp(dir, ".usefullatency-check-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: directory %s is not writable", path, dir)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
