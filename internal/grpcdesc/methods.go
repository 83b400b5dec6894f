package grpcdesc

import (
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// Methods indexes the methods of a set of file descriptors by full name
// ("/package.Service/Method"). The zero value is empty and ready to use; it
// is not safe for concurrent changes.
type Methods struct {
	byName map[string]protoreflect.MethodDescriptor
	// files holds the files of every Add, each path once: the types
	// messages of the methods may hold in google.protobuf.Any fields.
	files *protoregistry.Files
}

// Add indexes every method of every service of files.
func (m *Methods) Add(files *protoregistry.Files) {
	if m.byName == nil {
		m.byName = make(map[string]protoreflect.MethodDescriptor)
		m.files = new(protoregistry.Files)
	}
	files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		if _, err := m.files.FindFileByPath(fd.Path()); err != nil {
			_ = m.files.RegisterFile(fd)
		}
		services := fd.Services()
		for i := range services.Len() {
			methods := services.Get(i).Methods()
			for j := range methods.Len() {
				md := methods.Get(j)
				m.byName[FullMethod(md)] = md
			}
		}
		return true
	})
}

// Find returns the method called name; the leading slash of
// "/package.Service/Method" is optional.
func (m *Methods) Find(name string) (protoreflect.MethodDescriptor, error) {
	full := "/" + strings.TrimPrefix(name, "/")
	if md, ok := m.byName[full]; ok {
		return md, nil
	}
	if len(m.byName) == 0 {
		return nil, fmt.Errorf("method %q not found: no method is known; load its .proto file (client.load), a protoset (client.loadProtoset) or connect with reflect: true", full)
	}
	return nil, fmt.Errorf("method %q not found in the loaded descriptors (known: %s)", full, strings.Join(m.Names(), ", "))
}

// Names returns the full names of the methods, sorted.
func (m *Methods) Names() []string {
	out := make([]string, 0, len(m.byName))
	for n := range m.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Types returns the message types of the files added, for the JSON
// mapping of google.protobuf.Any fields.
func (m *Methods) Types() *dynamicpb.Types {
	if m.files == nil {
		return dynamicpb.NewTypes(new(protoregistry.Files))
	}
	return dynamicpb.NewTypes(m.files)
}

// Len is the number of methods.
func (m *Methods) Len() int { return len(m.byName) }

// FullMethod is md's name on the wire, "/package.Service/Method".
func FullMethod(md protoreflect.MethodDescriptor) string {
	return "/" + string(md.Parent().FullName()) + "/" + string(md.Name())
}
