package k6grpc_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/usefullatency/usefullatency/internal/grpcdesc"
	"github.com/usefullatency/usefullatency/internal/grpcdesc/grpctest"
	"github.com/usefullatency/usefullatency/js"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/metrics"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// BenchmarkInvoke measures one unary call through a real VU: the request
// object converted to a message, the call to the loopback server, its
// samples, and the Response object built from the reply.
func BenchmarkInvoke(b *testing.B) {
	srv := grpctest.Start(b)
	src := `import grpc from 'k6/net/grpc';
const client = new grpc.Client();
client.load(['` + srv.ProtoDir + `'], 'chat.proto');
export default function () {
  client.connect('` + srv.Addr + `', { plaintext: true });
  for (let i = 0; i < ` + strconv.Itoa(b.N) + `; i++) {
    const res = client.invoke('chat.v1.Chat/Complete', { text: 'hello', big: 42 }, { metadata: { 'x-n': 'v' } });
    if (res.status !== grpc.StatusOK) throw new Error('status ' + res.status);
  }
  client.close();
}`
	path := filepath.Join(b.TempDir(), "bench.js")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	vu := jstest.NewVUFile(b, path)
	b.ReportAllocs()
	b.ResetTimer()
	if err := vu.RunIteration(context.Background(), js.Iteration{Exec: "default", Tags: metrics.Tags{}}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkInvokeGo is BenchmarkInvoke's call from Go, without a VU: the
// floor the module's own cost is measured against.
func BenchmarkInvokeGo(b *testing.B) {
	srv := grpctest.Start(b)
	files, err := grpcdesc.Compile(context.Background(), []string{srv.ProtoDir}, []string{"chat.proto"}, os.ReadFile)
	if err != nil {
		b.Fatal(err)
	}
	var methods grpcdesc.Methods
	methods.Add(files)
	md, err := methods.Find("chat.v1.Chat/Complete")
	if err != nil {
		b.Fatal(err)
	}
	conn, err := grpc.NewClient("passthrough:///"+srv.Addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	req := dynamicpb.NewMessage(md.Input())
	req.Set(md.Input().Fields().ByName("text"), protoreflect.ValueOfString("hello"))
	ctx := metadata.AppendToOutgoingContext(context.Background(), "x-n", "v")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		resp := dynamicpb.NewMessage(md.Output())
		if err := conn.Invoke(ctx, "/chat.v1.Chat/Complete", req, resp); err != nil {
			b.Fatal(err)
		}
	}
}
