// Package grpctest runs a real gRPC server on 127.0.0.1 for tests: the
// chat.v1.Chat service of testdata/chat.proto, compiled when the server
// starts and served with dynamic messages, plus the reflection service.
package grpctest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/internal/grpcdesc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/reflection"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	rpbalpha "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Server is a running chat server.
type Server struct {
	// Addr is its host:port on 127.0.0.1.
	Addr string
	// Proto is the absolute path of chat.proto, ProtoDir its directory.
	Proto, ProtoDir string
	// Hanging receives, when nobody waits, once per call that started
	// to hang (Prompt.hang).
	Hanging chan struct{}
	files   *protoregistry.Files
	svc     protoreflect.ServiceDescriptor
}

// Start starts a server, stopped when t ends; opts are added to the
// grpc.Server's (credentials, limits). It serves the reflection service
// grpc.reflection.v1.
func Start(t testing.TB, opts ...grpc.ServerOption) *Server {
	t.Helper()
	return start(t, false, opts)
}

// StartV1Alpha is Start with the older reflection service,
// grpc.reflection.v1alpha, only.
func StartV1Alpha(t testing.TB, opts ...grpc.ServerOption) *Server {
	t.Helper()
	return start(t, true, opts)
}

func start(t testing.TB, alpha bool, opts []grpc.ServerOption) *Server {
	t.Helper()
	s, stop, err := listen(alpha, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return s
}

// Listen starts a server outside a test; stop stops it.
func Listen(opts ...grpc.ServerOption) (*Server, func(), error) { return listen(false, opts) }

// listen starts a server with the reflection service v1, or v1alpha.
func listen(alpha bool, opts []grpc.ServerOption) (*Server, func(), error) {
	dir := ProtoDir()
	files, err := grpcdesc.Compile(context.Background(), []string{dir}, []string{"chat.proto"}, os.ReadFile)
	if err != nil {
		return nil, nil, err
	}
	d, err := files.FindDescriptorByName("chat.v1.Chat")
	if err != nil {
		return nil, nil, err
	}
	s := &Server{Proto: filepath.Join(dir, "chat.proto"), ProtoDir: dir, files: files, svc: d.(protoreflect.ServiceDescriptor), Hanging: make(chan struct{}, 16)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	s.Addr = ln.Addr().String()
	srv := grpc.NewServer(opts...)
	srv.RegisterService(s.serviceDesc(), s)
	ropts := reflection.ServerOptions{Services: srv, DescriptorResolver: files}
	if alpha {
		rpbalpha.RegisterServerReflectionServer(srv, reflection.NewServer(ropts))
	} else {
		rpb.RegisterServerReflectionServer(srv, reflection.NewServerV1(ropts))
	}
	go func() { _ = srv.Serve(ln) }()
	return s, srv.Stop, nil
}

// ProtoDir is the absolute path of the directory of chat.proto.
func ProtoDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata")
}

// serviceDesc describes the service to grpc, each method served by the
// handler of the same name.
func (s *Server) serviceDesc() *grpc.ServiceDesc {
	return &grpc.ServiceDesc{
		ServiceName: string(s.svc.FullName()),
		HandlerType: (*any)(nil),
		Methods:     []grpc.MethodDesc{{MethodName: "Complete", Handler: s.complete}},
		Streams: []grpc.StreamDesc{
			{StreamName: "Generate", Handler: s.generate, ServerStreams: true},
			{StreamName: "Collect", Handler: s.collect, ClientStreams: true},
			{StreamName: "Converse", Handler: s.converse, ServerStreams: true, ClientStreams: true},
		},
		Metadata: "chat.proto",
	}
}

// message returns a new message of the named type of chat.v1.
func (s *Server) message(name string) *dynamicpb.Message {
	d, err := s.files.FindDescriptorByName(protoreflect.FullName("chat.v1." + name))
	if err != nil {
		panic(err)
	}
	return dynamicpb.NewMessage(d.(protoreflect.MessageDescriptor))
}

// prompt reads the fields of a Prompt.
type prompt struct {
	text     string
	tokens   int
	failCode codes.Code
	hang     bool
	big      int64
	blob     []byte
}

func readPrompt(m *dynamicpb.Message) prompt {
	f := m.Descriptor().Fields()
	return prompt{
		text:     m.Get(f.ByName("text")).String(),
		tokens:   int(m.Get(f.ByName("tokens")).Int()),
		failCode: codes.Code(m.Get(f.ByName("fail_code")).Int()),
		hang:     m.Get(f.ByName("hang")).Bool(),
		big:      m.Get(f.ByName("big")).Int(),
		blob:     m.Get(f.ByName("blob")).Bytes(),
	}
}

// complete answers a Prompt with a Reply echoing its text, big and blob
// and the request's x- metadata; it sends the header x-served-by and the
// trailer x-tokens. fail_code fails the call; hang waits for its end.
func (s *Server) complete(_ any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
	in := s.message("Prompt")
	if err := dec(in); err != nil {
		return nil, err
	}
	p := readPrompt(in)
	if p.hang {
		s.hung()
		<-ctx.Done()
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	_ = grpc.SetHeader(ctx, metadata.Pairs("x-served-by", "grpctest"))
	_ = grpc.SetTrailer(ctx, metadata.Pairs("x-tokens", fmt.Sprint(len(strings.Fields(p.text)))))
	if p.failCode != codes.OK {
		return nil, status.Errorf(p.failCode, "failed as asked: %s", p.text)
	}
	return s.reply(ctx, p.text, p.big, p.blob), nil
}

// reply builds a Reply.
func (s *Server) reply(ctx context.Context, text string, big int64, blob []byte) *dynamicpb.Message {
	out := s.message("Reply")
	f := out.Descriptor().Fields()
	out.Set(f.ByName("text"), protoreflect.ValueOfString(text))
	out.Set(f.ByName("big"), protoreflect.ValueOfInt64(big))
	out.Set(f.ByName("blob"), protoreflect.ValueOfBytes(blob))
	out.Set(f.ByName("at"), protoreflect.ValueOfMessage(timestamppb.New(timestamppb.Now().AsTime().Truncate(1e9)).ProtoReflect()))
	md, _ := metadata.FromIncomingContext(ctx)
	mm := out.Mutable(f.ByName("metadata")).Map()
	for k, v := range md {
		if strings.HasPrefix(k, "x-") && len(v) > 0 {
			mm.Set(protoreflect.ValueOfString(k).MapKey(), protoreflect.ValueOfString(strings.Join(v, ",")))
		}
	}
	return out
}

// hung signals a call that hangs.
func (s *Server) hung() {
	select {
	case s.Hanging <- struct{}{}:
	default:
	}
}

// token builds a Token.
func (s *Server) token(text string, i int) *dynamicpb.Message {
	t := s.message("Token")
	f := t.Descriptor().Fields()
	t.Set(f.ByName("text"), protoreflect.ValueOfString(text))
	t.Set(f.ByName("index"), protoreflect.ValueOfInt32(int32(i)))
	return t
}

// generate streams tokens "tok0", "tok1"… then ends, with fail_code's
// status when set; hang sends nothing and waits for the call's end.
func (s *Server) generate(_ any, stream grpc.ServerStream) error {
	in := s.message("Prompt")
	if err := stream.RecvMsg(in); err != nil {
		return err
	}
	p := readPrompt(in)
	_ = stream.SetHeader(metadata.Pairs("x-served-by", "grpctest"))
	if p.hang {
		s.hung()
		<-stream.Context().Done()
		return status.FromContextError(stream.Context().Err()).Err()
	}
	for i := range p.tokens {
		if err := stream.SendMsg(s.token(fmt.Sprintf("tok%d", i), i)); err != nil {
			return err
		}
	}
	if p.failCode != codes.OK {
		return status.Errorf(p.failCode, "failed as asked after %d tokens", p.tokens)
	}
	return nil
}

// collect reads prompts until the client ends and replies with their
// texts joined by spaces.
func (s *Server) collect(_ any, stream grpc.ServerStream) error {
	var texts []string
	for {
		in := s.message("Prompt")
		err := stream.RecvMsg(in)
		if errors.Is(err, io.EOF) {
			return stream.SendMsg(s.reply(stream.Context(), strings.Join(texts, " "), 0, nil))
		}
		if err != nil {
			return err
		}
		texts = append(texts, readPrompt(in).text)
	}
}

// converse answers each prompt with a token "echo:<text>", until the
// client ends.
func (s *Server) converse(_ any, stream grpc.ServerStream) error {
	for i := 0; ; i++ {
		in := s.message("Prompt")
		err := stream.RecvMsg(in)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := stream.SendMsg(s.token("echo:"+readPrompt(in).text, i)); err != nil {
			return err
		}
	}
}
