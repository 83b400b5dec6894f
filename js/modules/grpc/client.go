package k6grpc

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/grpcdesc"
	"github.com/usefullatency/usefullatency/js/modules"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// errNotConnected is the error of a call before connect() or after close().
var errNotConnected = errors.New("no gRPC connection: call client.connect(address) first")

// client is one Client: its methods and its connection. It is used on the
// VU's goroutine.
type client struct {
	m       *instance
	methods grpcdesc.Methods
	conn    *grpc.ClientConn
	addr    string
}

// newClient is the constructor new Client(): a client with no method
// and no connection.
func (m *instance) newClient(call sobek.ConstructorCall) *sobek.Object {
	c := &client{m: m}
	obj := call.This
	_ = obj.DefineDataPropertySymbol(m.clientKey, m.vu.Runtime().ToValue(c), sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_FALSE)
	methods := map[string]any{
		"load": c.load, "loadProtoset": c.loadProtoset, "connect": c.connect,
		"invoke": c.invoke, "asyncInvoke": c.asyncInvoke, "close": c.close,
	}
	for name, fn := range methods {
		_ = obj.DefineDataProperty(name, m.vu.Runtime().ToValue(fn), sobek.FLAG_TRUE, sobek.FLAG_FALSE, sobek.FLAG_TRUE)
	}
	return nil
}

// clientOf returns the Go client of a Client object.
func (m *instance) clientOf(v sobek.Value) (*client, bool) {
	obj, ok := v.(*sobek.Object)
	if !ok {
		return nil, false
	}
	v = obj.GetSymbol(m.clientKey)
	if v == nil {
		return nil, false
	}
	c, ok := v.Export().(*client)
	return c, ok
}

// load is client.load(importPaths, ...protoFiles): it compiles the files,
// found relative to the import paths (relative ones are relative to the
// calling script; none means the script's directory), and adds their
// methods. Only init code may call it. The compiled files are shared by
// the run's VUs.
func (c *client) load(importPaths sobek.Value, protoFiles ...string) error {
	if !c.m.vu.InInit() {
		return errors.New("client.load must be called in the init context")
	}
	if len(protoFiles) == 0 {
		return errors.New("client.load: no .proto file given")
	}
	fr := c.m.vu
	var paths []string
	if !isNullish(importPaths) {
		if err := c.m.vu.Runtime().ExportTo(importPaths, &paths); err != nil {
			return fmt.Errorf("client.load: importPaths must be an array of strings, got %s", modules.TypeName(importPaths))
		}
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for i, p := range paths {
		paths[i] = fr.ResolvePath(p)
	}
	key := "k6/net/grpc.load\x00" + strings.Join(paths, "\x00") + "\x00\x00" + strings.Join(protoFiles, "\x00")
	files, err := c.shared(key, func() (*protoregistry.Files, error) {
		return grpcdesc.Compile(context.Background(), paths, protoFiles, fr.ReadFile)
	})
	if err != nil {
		return fmt.Errorf("client.load: %w", err)
	}
	c.methods.Add(files)
	return nil
}

// loadProtoset is client.loadProtoset(path): it reads a protoset (a
// serialized FileDescriptorSet with its imports), relative to the calling
// script, and adds its methods. Only init code may call it.
func (c *client) loadProtoset(path string) error {
	if !c.m.vu.InInit() {
		return errors.New("client.loadProtoset must be called in the init context")
	}
	fr := c.m.vu
	abs := fr.ResolvePath(path)
	files, err := c.shared("k6/net/grpc.protoset\x00"+abs, func() (*protoregistry.Files, error) {
		data, err := fr.ReadFile(abs)
		if err != nil {
			return nil, err
		}
		return grpcdesc.Protoset(data)
	})
	if err != nil {
		return fmt.Errorf("client.loadProtoset(%q): %w", filepath.ToSlash(path), err)
	}
	c.methods.Add(files)
	return nil
}

// shared builds files once per run under key (every VU loads the same
// files); outside a run it builds them.
func (c *client) shared(key string, build func() (*protoregistry.Files, error)) (*protoregistry.Files, error) {
	run := c.m.vu.State().Run
	if run == nil {
		return build()
	}
	v, err := run.Shared.GetOrBuild(key, func() (any, error) { return build() })
	if err != nil {
		return nil, err
	}
	return v.(*protoregistry.Files), nil
}

// connect is client.connect(address, params): it dials address and waits
// until the connection is ready, within params.timeout; with reflect it
// then adds the methods the server's reflection service lists. A client
// already connected closes its connection first. It returns true.
func (c *client) connect(addr string, params sobek.Value) (bool, error) {
	if c.m.vu.InInit() {
		return false, errors.New("connecting to a gRPC server in the init context is not supported")
	}
	p, err := parseConnectParams(c.m.vu.Runtime(), params)
	if err != nil {
		return false, fmt.Errorf("client.connect: %w", err)
	}
	c.close()
	ctx, cancel := context.WithTimeout(c.m.vu.Context(), p.timeout)
	defer cancel()
	var (
		conn  *grpc.ClientConn
		files *protoregistry.Files
	)
	modules.Blocking(c.m.vu, func() {
		if conn, err = c.m.dial(ctx, addr, p); err == nil && p.reflect {
			files, err = grpcdesc.Reflect(metadata.NewOutgoingContext(ctx, p.reflectMetadata), conn)
		}
	})
	if conn == nil {
		return false, fmt.Errorf("client.connect(%q): %w", addr, err)
	}
	if p.reflect {
		if err != nil {
			_ = conn.Close()
			return false, fmt.Errorf("client.connect(%q): %w", addr, err)
		}
		c.methods.Add(files)
	}
	c.conn, c.addr = conn, addr
	return true, nil
}

// close is client.close(): it closes the connection, if any; calls and
// streams still open end with status CANCELED.
func (c *client) close() {
	if c.conn != nil {
		_ = c.conn.Close()
		c.conn = nil
	}
}
