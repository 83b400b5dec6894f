package modules

// FileReader is implemented by VUs that read files for init code, as
// open() does: modules that load files of their own (k6/net/grpc's .proto
// files) type-assert their VU to it.
type FileReader interface {
	// ResolvePath returns name, made absolute against the directory of
	// the module whose code is running when name is relative.
	ResolvePath(name string) string
	// ReadFile reads the file at an absolute path as open() reads it:
	// from the test's archive when it runs one, else from the disk; the
	// file joins what an archive of the test holds.
	ReadFile(path string) ([]byte, error)
}
