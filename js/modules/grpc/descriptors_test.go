package k6grpc_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/usefullatency/usefullatency/internal/grpcdesc"
	"github.com/usefullatency/usefullatency/internal/grpcdesc/grpctest"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// runEnv runs src once with a chat server started with opts and env added
// to __ENV (GRPC, PROTO_DIR and PROTO set).
func runEnv(t *testing.T, src string, env map[string]string, change func(*modules.Run), opts ...grpc.ServerOption) result {
	t.Helper()
	srv := grpctest.Start(t, opts...)
	r := jstest.Run(context.Background(), t, src, 1, func(r *modules.Run) {
		r.Env = map[string]string{"GRPC": srv.Addr, "PROTO_DIR": srv.ProtoDir, "PROTO": srv.Proto}
		for k, v := range env {
			r.Env[k] = v
		}
		if change != nil {
			change(r)
		}
	})
	return result{err: r.Err, samples: r.Samples, log: r.Log}
}

func TestReflectionFindsTheServersMethods(t *testing.T) {
	r := runEnv(t, `import grpc from 'k6/net/grpc';
const client = new grpc.Client();
export default function () {
  client.connect(__ENV.GRPC, { plaintext: true, reflect: true, reflectMetadata: { 'x-who': 'k6' } });
  const res = client.invoke('chat.v1.Chat/Complete', { text: 'reflected' });
  if (res.status !== grpc.StatusOK || res.message.text !== 'reflected') throw new Error(JSON.stringify(res));
}`, nil, nil)
	if r.err != nil {
		t.Fatal(r.err)
	}
}

func TestABadProtoFileIsAnErrorNamingIt(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "broken.proto"), []byte("syntax = \"proto3\";\nmessage X {\n  string a = ;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, load := range map[string]string{
		"syntax error": `client.load([__ENV.DIR], 'broken.proto');`,
		"missing file": `client.load([__ENV.DIR], 'absent.proto');`,
		"absolute":     `client.load([], __ENV.DIR + '/broken.proto');`,
	} {
		t.Run(name, func(t *testing.T) {
			r := runEnv(t, "import grpc from 'k6/net/grpc';\nconst client = new grpc.Client();\n"+load+"\nexport default function () {}", map[string]string{"DIR": dir}, nil)
			file := "broken.proto:3:"
			if name == "missing file" {
				file = "absent.proto"
			}
			if r.err == nil || !strings.Contains(r.err.Error(), "client.load") || !strings.Contains(r.err.Error(), file) {
				t.Fatalf("error %v, want client.load's naming %s", r.err, file)
			}
		})
	}
}

func TestLoadProtosetAndRelativeImportPaths(t *testing.T) {
	files, err := grpcdesc.Compile(context.Background(), []string{grpctest.ProtoDir()}, []string{"chat.proto"}, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	set := &descriptorpb.FileDescriptorSet{}
	files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
		return true
	})
	b, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chat.protoset")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runEnv(t, `import grpc from 'k6/net/grpc';
const fromSet = new grpc.Client();
fromSet.loadProtoset(__ENV.PROTOSET);
export default function () {
  fromSet.connect(__ENV.GRPC, { plaintext: true });
  const res = fromSet.invoke('chat.v1.Chat/Complete', { text: 'from a protoset' });
  if (res.message.text !== 'from a protoset') throw new Error(JSON.stringify(res));
}`, map[string]string{"PROTOSET": path}, nil)
	if r.err != nil {
		t.Fatal(r.err)
	}
}

func TestTLSConnectWithCACertsAndHostsOption(t *testing.T) {
	cert, caPEM, err := grpctest.SelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	creds := grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}}))
	src := `import grpc from 'k6/net/grpc';
const client = new grpc.Client();
client.load([__ENV.PROTO_DIR], 'chat.proto');
export default function () {
  let err = '';
  try { client.connect(__ENV.GRPC, { timeout: '5s' }); } catch (e) { err = String(e); }
  if (!err.includes('TLS handshake')) throw new Error('an untrusted certificate: ' + err);
  client.connect('chat.test:' + __ENV.GRPC.split(':')[1], { tls: { cacerts: [__ENV.CA] }, authority: 'localhost' });
  const res = client.invoke('chat.v1.Chat/Complete', { text: 'over TLS' });
  if (res.message.text !== 'over TLS') throw new Error(JSON.stringify(res));
  if (!res.message.metadata || res.status !== 0) throw new Error('status ' + res.status);
}`
	r := runEnv(t, src, map[string]string{"CA": caPEM}, func(r *modules.Run) {
		r.Options = map[string]any{"hosts": map[string]any{"chat.test": "127.0.0.1"}}
	}, creds)
	if r.err != nil {
		t.Fatalf("%v\n%s", r.err, r.log)
	}
	if d := r.of("grpc_req_duration"); len(d) != 1 || !strings.HasPrefix(d[0].Tags["url"], "chat.test:") {
		t.Errorf("grpc_req_duration: %+v, want one whose url names chat.test", d)
	}
}

func TestTLSAuthOptionSendsTheClientCertificateOfTheHost(t *testing.T) {
	cert, caPEM, err := grpctest.SelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	clientCert, clientKey, err := grpctest.SelfSignedPEM()
	if err != nil {
		t.Fatal(err)
	}
	var presented atomic.Int32
	creds := grpc.Creds(credentials.NewTLS(&tls.Config{
		Certificates: []tls.Certificate{cert},
		ClientAuth:   tls.RequireAnyClientCert,
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			presented.Add(1)
			return nil
		},
	}))
	src := `import grpc from 'k6/net/grpc';
const client = new grpc.Client();
client.load([__ENV.PROTO_DIR], 'chat.proto');
export default function () {
  client.connect('chat.test:' + __ENV.GRPC.split(':')[1], { tls: { cacerts: __ENV.CA }, authority: 'localhost', timeout: '5s' });
  const res = client.invoke('chat.v1.Chat/Complete', { text: 'with a client certificate' });
  if (res.status !== grpc.StatusOK) throw new Error(JSON.stringify(res.error));
}`
	for _, domain := range []string{"chat.test", "other.test"} {
		presented.Store(0)
		r := runEnv(t, src, map[string]string{"CA": caPEM}, func(r *modules.Run) {
			r.Options = map[string]any{
				"hosts":   map[string]any{"chat.test": "127.0.0.1"},
				"tlsAuth": []any{map[string]any{"domains": []any{domain}, "cert": clientCert, "key": clientKey}},
			}
		}, creds)
		if domain == "other.test" {
			if r.err == nil || presented.Load() != 0 {
				t.Errorf("a certificate for another domain was sent (error %v)", r.err)
			}
			continue
		}
		if r.err != nil {
			t.Fatalf("%v\n%s", r.err, r.log)
		}
		if presented.Load() == 0 {
			t.Fatal("the server saw no client certificate")
		}
	}
}
