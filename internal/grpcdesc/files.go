package grpcdesc

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// ReadFunc reads the file at an absolute path.
type ReadFunc func(path string) ([]byte, error)

// Compile parses and links the .proto files names, each found relative to
// one of importPaths (absolute directories, searched in order), as are the
// files they import; google/protobuf's well-known files are built in. An
// absolute name is also searched in its own directory. A syntax or link
// error names the file, line and column.
func Compile(ctx context.Context, importPaths, names []string, read ReadFunc) (*protoregistry.Files, error) {
	paths := append([]string(nil), importPaths...)
	rel := make([]string, len(names))
	for i, n := range names {
		rel[i] = n
		if filepath.IsAbs(n) {
			paths = append(paths, filepath.Dir(n))
			rel[i] = filepath.Base(n)
		}
	}
	c := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{
			ImportPaths: paths,
			Accessor: func(path string) (io.ReadCloser, error) {
				b, err := read(path)
				if err != nil {
					return nil, err
				}
				return io.NopCloser(bytes.NewReader(b)), nil
			},
		}),
		MaxParallelism: 1,
	}
	compiled, err := c.Compile(ctx, rel...)
	if err != nil {
		return nil, err
	}
	files := new(protoregistry.Files)
	for _, fd := range compiled {
		if err := register(files, fd); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// register adds fd and, first, the files it imports, each once.
func register(files *protoregistry.Files, fd protoreflect.FileDescriptor) error {
	if _, err := files.FindFileByPath(fd.Path()); err == nil {
		return nil
	}
	imports := fd.Imports()
	for i := range imports.Len() {
		if err := register(files, imports.Get(i).FileDescriptor); err != nil {
			return err
		}
	}
	if err := files.RegisterFile(fd); err != nil {
		return fmt.Errorf("%s: %w", fd.Path(), err)
	}
	return nil
}

// Protoset reads a protoset: a serialized google.protobuf.FileDescriptorSet,
// as `protoc --descriptor_set_out --include_imports` writes it. Every file
// a file imports must be in the set.
func Protoset(data []byte) (*protoregistry.Files, error) {
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("not a FileDescriptorSet: %w", err)
	}
	return FileSet(&set)
}

// FileSet links the files of set; a file's imports must be in the set or
// among google/protobuf's well-known files (which protocompile links in).
func FileSet(set *descriptorpb.FileDescriptorSet) (*protoregistry.Files, error) {
	have := make(map[string]bool, len(set.File))
	for _, f := range set.File {
		have[f.GetName()] = true
	}
	full := &descriptorpb.FileDescriptorSet{File: append([]*descriptorpb.FileDescriptorProto(nil), set.File...)}
	for i := 0; i < len(full.File); i++ {
		f := full.File[i]
		for _, dep := range f.Dependency {
			if have[dep] {
				continue
			}
			wk, err := protoregistry.GlobalFiles.FindFileByPath(dep)
			if err != nil {
				return nil, fmt.Errorf("%s imports %s, which is not in the set", f.GetName(), dep)
			}
			have[dep] = true
			full.File = append(full.File, protodesc.ToFileDescriptorProto(wk))
		}
	}
	return protodesc.NewFiles(full)
}
