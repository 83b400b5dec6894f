package js

import (
	"os"
)

// Files serves the files of a test by name: an absolute local path, or
// the URL of a remote module. An archive is one (see Config.Files).
type Files interface {
	// ReadFile returns the content of the file or module name; an error
	// for one it does not hold should wrap fs.ErrNotExist.
	ReadFile(name string) ([]byte, error)
}

// readFile reads a local file or a remote module: from Config.Files when
// set, else from the disk or the network; every read is reported to
// Config.OnRead.
func (b *Bundle) readFile(name string) ([]byte, error) {
	var data []byte
	var err error
	switch {
	case b.cfg.Files != nil:
		data, err = b.cfg.Files.ReadFile(name)
	case isRemote(name):
		var src string
		src, err = b.fetchRemote(name)
		data = []byte(src)
	default:
		data, err = os.ReadFile(name)
	}
	if err == nil && b.cfg.OnRead != nil {
		b.cfg.OnRead(name, data)
	}
	return data, err
}

// ReadFile reads name as the bundle reads its modules: from its archive
// when it runs one, else from the disk or the network.
func (b *Bundle) ReadFile(name string) ([]byte, error) { return b.readFile(name) }
