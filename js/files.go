package js

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/usefullatency/usefullatency/internal/httpsafe"
)

// DefaultMaxFileSize is the largest local file a test reads (its script,
// the modules it imports, open() and k6/experimental/fs's open()) when
// Config.MaxFileSize is zero: 1 GiB. The `--max-file-size` flag of run,
// inspect and archive sets Config.MaxFileSize.
const DefaultMaxFileSize = 1 << 30

// Files serves the files of a test by name: an absolute local path, or
// the URL of a remote module. An archive is one (see Config.Files).
type Files interface {
	// ReadFile returns the content of the file or module name; an error
	// for one it does not hold should wrap fs.ErrNotExist.
	ReadFile(name string) ([]byte, error)
}

// readFile reads a local file or a remote module: from Config.Files when
// set, else from the disk (see ReadLocalFile) or the network; every read
// is reported to Config.OnRead.
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
		data, err = ReadLocalFile(name, b.cfg.MaxFileSize)
	}
	if err == nil && b.cfg.OnRead != nil {
		b.cfg.OnRead(name, data)
	}
	return data, err
}

// ReadFile reads name as the bundle reads its modules: from its archive
// when it runs one, else from the disk or the network.
func (b *Bundle) ReadFile(name string) ([]byte, error) { return b.readFile(name) }

// FileError is a local file a test may not read: not a regular file (a
// device such as /dev/zero, a FIFO, a socket), or larger than the limit.
type FileError struct {
	// Path is the file's path.
	Path string
	// Kind describes a file that is not regular ("a device"); "" for one
	// that is too large.
	Kind string
	// Size and Limit are the file's size and the limit, in bytes, for a
	// file that is too large.
	Size, Limit int64
}

// Error returns a one-line description naming the file and the limit.
func (e *FileError) Error() string {
	if e.Kind != "" {
		return fmt.Sprintf("%s is not a regular file (%s): a test reads regular files only", e.Path, e.Kind)
	}
	return fmt.Sprintf("%s is %s, more than the %s a test may read from one file (raise it with --max-file-size)",
		e.Path, formatSize(e.Size), formatSize(e.Limit))
}

// ReadLocalFile reads the regular file at name, of at most max bytes
// (DefaultMaxFileSize when max is 0 or less). A directory fails as
// os.ReadFile fails on one (syscall.EISDIR); a device, FIFO or socket, and
// a file above max, with a *FileError, before anything is read: a FIFO
// is not even opened.
func ReadLocalFile(name string, max int64) ([]byte, error) {
	if max <= 0 {
		max = DefaultMaxFileSize
	}
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if err := checkFile(name, st, max); err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been replaced or grown since: check what was
	// opened, and read no more than the limit.
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := checkFile(name, st, max); err != nil {
		return nil, err
	}
	data := make([]byte, 0, st.Size()+1)
	data, err = readAtMost(f, data, max)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &FileError{Path: name, Size: int64(len(data)), Limit: max}
	}
	return data, nil
}

// checkFile refuses a file that is not regular or is above max bytes.
func checkFile(name string, st fs.FileInfo, max int64) error {
	switch mode := st.Mode(); {
	case mode.IsDir():
		return &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
	case mode&fs.ModeNamedPipe != 0:
		return &FileError{Path: name, Kind: "a FIFO"}
	case mode&fs.ModeSocket != 0:
		return &FileError{Path: name, Kind: "a socket"}
	case mode&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return &FileError{Path: name, Kind: "a device"}
	case !mode.IsRegular():
		return &FileError{Path: name, Kind: "mode " + mode.String()}
	case st.Size() > max:
		return &FileError{Path: name, Size: st.Size(), Limit: max}
	}
	return nil
}

// readAtMost appends what r holds to data, up to max+1 bytes.
func readAtMost(r io.Reader, data []byte, max int64) ([]byte, error) {
	lr := io.LimitReader(r, max+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := lr.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// formatSize writes n bytes as "1 GiB" or "512 MiB" when it is a whole
// number of them, else as "4097 bytes".
func formatSize(n int64) string { return httpsafe.FormatBytes(n) }
