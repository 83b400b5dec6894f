package grpcdesc_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/internal/grpcdesc"
	"github.com/usefullatency/usefullatency/internal/grpcdesc/grpctest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
)

// write writes files (name → content) to a new directory and returns it.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCompileIndexesMethodsAcrossImports(t *testing.T) {
	dir := write(t, map[string]string{
		"api/svc.proto": "syntax = \"proto3\";\npackage a.v1;\nimport \"types/msg.proto\";\nimport \"google/protobuf/empty.proto\";\n" +
			"service S { rpc Get(b.M) returns (b.M); rpc Ping(google.protobuf.Empty) returns (stream b.M); }\n",
		"types/msg.proto": "syntax = \"proto3\";\npackage b;\nmessage M { string s = 1; }\n",
	})
	files, err := grpcdesc.Compile(context.Background(), []string{dir}, []string{"api/svc.proto"}, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	var m grpcdesc.Methods
	m.Add(files)
	if got := strings.Join(m.Names(), " "); got != "/a.v1.S/Get /a.v1.S/Ping" {
		t.Fatalf("methods %q", got)
	}
	md, err := m.Find("a.v1.S/Ping")
	if err != nil || !md.IsStreamingServer() || md.Output().FullName() != "b.M" {
		t.Fatalf("Find without the slash: %v %v", md, err)
	}
	if _, err := m.Find("/a.v1.S/Nope"); err == nil || !strings.Contains(err.Error(), "/a.v1.S/Get") {
		t.Errorf("an unknown method's error should list the known ones: %v", err)
	}
}

func TestCompileErrorsNameTheFile(t *testing.T) {
	dir := write(t, map[string]string{
		"bad.proto":     "syntax = \"proto3\";\nmessage X {\n  string a = ;\n}\n",
		"imports.proto": "syntax = \"proto3\";\nimport \"gone.proto\";\n",
		"types.proto":   "syntax = \"proto3\";\nmessage Y { Unknown u = 1; }\n",
	})
	for name, want := range map[string]string{
		"bad.proto":     "bad.proto:3:",
		"imports.proto": "gone.proto",
		"types.proto":   "types.proto:2:",
		"absent.proto":  "absent.proto",
	} {
		_, err := grpcdesc.Compile(context.Background(), []string{dir}, []string{name}, os.ReadFile)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one naming %q", name, err, want)
		}
	}
}

func TestProtosetRoundTripAndMissingImport(t *testing.T) {
	files, err := grpcdesc.Compile(context.Background(), []string{grpctest.ProtoDir()}, []string{"chat.proto"}, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := files.FindFileByPath("chat.proto")
	if err != nil {
		t.Fatal(err)
	}
	// Without google/protobuf/timestamp.proto: the well-known file is built in.
	b, _ := proto.Marshal(&descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{protodesc.ToFileDescriptorProto(fd)}})
	got, err := grpcdesc.Protoset(b)
	if err != nil {
		t.Fatal(err)
	}
	var m grpcdesc.Methods
	m.Add(got)
	if m.Len() != 4 {
		t.Errorf("%d methods, want 4", m.Len())
	}
	own := protodesc.ToFileDescriptorProto(fd)
	own.Dependency = append(own.Dependency, "elsewhere.proto")
	b, _ = proto.Marshal(&descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{own}})
	if _, err := grpcdesc.Protoset(b); err == nil || !strings.Contains(err.Error(), "elsewhere.proto") {
		t.Errorf("missing import: %v", err)
	}
	if _, err := grpcdesc.Protoset([]byte("not a protoset")); err == nil {
		t.Error("garbage read as a protoset")
	}
}

func TestReflectListsTheServersMethods(t *testing.T) {
	for name, start := range map[string]func(testing.TB, ...grpc.ServerOption) *grpctest.Server{"v1": grpctest.Start, "v1alpha": grpctest.StartV1Alpha} {
		t.Run(name, func(t *testing.T) { testReflect(t, start(t)) })
	}
}

// testReflect checks that Reflect lists the chat server's methods.
func testReflect(t *testing.T, srv *grpctest.Server) {
	t.Helper()
	conn, err := grpc.NewClient("passthrough:///"+srv.Addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	files, err := grpcdesc.Reflect(context.Background(), conn)
	if err != nil {
		t.Fatal(err)
	}
	var m grpcdesc.Methods
	m.Add(files)
	want := "/chat.v1.Chat/Collect /chat.v1.Chat/Complete /chat.v1.Chat/Converse /chat.v1.Chat/Generate"
	if got := strings.Join(m.Names(), " "); got != want {
		t.Fatalf("methods %q, want %q", got, want)
	}
}

func TestReflectWithoutTheServiceIsAnError(t *testing.T) {
	srv := grpc.NewServer()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("passthrough:///"+ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = grpcdesc.Reflect(context.Background(), conn)
	if err == nil || !strings.Contains(err.Error(), "reflection") {
		t.Fatalf("error %v, want a reflection error", err)
	}
}
