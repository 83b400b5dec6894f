// Package otlptest is the OTLP metrics receiver of the tests: a real
// OTLP/HTTP endpoint and a real OTLP/gRPC endpoint (the collector's
// MetricsService) on 127.0.0.1, which decode every export with the
// official protobuf types and keep it with the headers it came with.
package otlptest

import (
	"context"
	"encoding/pem"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	metricpb "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

// Export is one request a receiver accepted.
type Export struct {
	Request *colmetricpb.ExportMetricsServiceRequest
	// Header holds the request's HTTP headers or gRPC metadata, keys in
	// lower case, values joined by ",".
	Header map[string]string
}

// Receiver keeps the exports it accepted; Exports signals each one.
type Receiver struct {
	// Endpoint is host:port of the listener.
	Endpoint string
	// Exports receives every accepted export (buffered; sends never
	// block, an export beyond the buffer is only kept).
	Exports chan Export

	mu  sync.Mutex
	all []Export
}

func newReceiver() *Receiver { return &Receiver{Exports: make(chan Export, 1024)} }

// keep stores an export and signals it.
func (r *Receiver) keep(e Export) {
	r.mu.Lock()
	r.all = append(r.all, e)
	r.mu.Unlock()
	select {
	case r.Exports <- e:
	default:
	}
}

// All returns every export so far, in order.
func (r *Receiver) All() []Export {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Export(nil), r.all...)
}

// Last returns the latest export; ok is false when there is none.
func (r *Receiver) Last() (e Export, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.all) == 0 {
		return Export{}, false
	}
	return r.all[len(r.all)-1], true
}

// listen opens a loopback listener closed when the test ends.
func listen(t testing.TB) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// StartHTTP serves OTLP/HTTP (binary protobuf) on POST path, e.g.
// "/v1/metrics", until the test ends.
func StartHTTP(t testing.TB, path string) *Receiver {
	t.Helper()
	r := newReceiver()
	l := listen(t)
	r.Endpoint = l.Addr().String()
	srv := &http.Server{Handler: r.handler(path)}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return r
}

// StartHTTPS serves OTLP/HTTP over TLS with a self-signed certificate for
// 127.0.0.1, written as PEM to the returned file (the CA a client trusts).
func StartHTTPS(t testing.TB, path string) (r *Receiver, caFile string) {
	t.Helper()
	r = newReceiver()
	srv := httptest.NewUnstartedServer(r.handler(path))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are what some tests want
	srv.StartTLS()
	t.Cleanup(srv.Close)
	r.Endpoint = srv.Listener.Addr().String()
	caFile = filepath.Join(t.TempDir(), "otlp-ca.pem")
	block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(caFile, block, 0o600); err != nil {
		t.Fatal(err)
	}
	return r, caFile
}

// handler decodes the exports posted to path.
func (r *Receiver) handler(path string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+path, func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		msg := &colmetricpb.ExportMetricsServiceRequest{}
		if err := proto.Unmarshal(body, msg); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		h := map[string]string{}
		for k, v := range req.Header {
			h[strings.ToLower(k)] = strings.Join(v, ",")
		}
		r.keep(Export{Request: msg, Header: h})
		out, _ := proto.Marshal(&colmetricpb.ExportMetricsServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	})
	return mux
}

// metricsService is the collector's MetricsService over a Receiver.
type metricsService struct {
	colmetricpb.UnimplementedMetricsServiceServer
	r *Receiver
}

func (s metricsService) Export(ctx context.Context, req *colmetricpb.ExportMetricsServiceRequest) (*colmetricpb.ExportMetricsServiceResponse, error) {
	h := map[string]string{}
	md, _ := metadata.FromIncomingContext(ctx)
	for k, v := range md {
		h[k] = strings.Join(v, ",")
	}
	s.r.keep(Export{Request: req, Header: h})
	return &colmetricpb.ExportMetricsServiceResponse{}, nil
}

// StartGRPC serves OTLP/gRPC (opentelemetry.proto.collector.metrics.v1.
// MetricsService) without TLS until the test ends.
func StartGRPC(t testing.TB) *Receiver {
	t.Helper()
	r := newReceiver()
	l := listen(t)
	r.Endpoint = l.Addr().String()
	srv := grpc.NewServer()
	colmetricpb.RegisterMetricsServiceServer(srv, metricsService{r: r})
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(srv.Stop)
	return r
}

// Metrics returns the metrics of an export by name (across resources and
// scopes; the last wins when a name repeats).
func (e Export) Metrics() map[string]*metricpb.Metric {
	out := map[string]*metricpb.Metric{}
	for _, rm := range e.Request.GetResourceMetrics() {
		for _, sm := range rm.GetScopeMetrics() {
			for _, m := range sm.GetMetrics() {
				out[m.GetName()] = m
			}
		}
	}
	return out
}

// ResourceAttributes returns the string attributes of the export's first
// resource.
func (e Export) ResourceAttributes() map[string]string {
	out := map[string]string{}
	rms := e.Request.GetResourceMetrics()
	if len(rms) == 0 {
		return out
	}
	for _, kv := range rms[0].GetResource().GetAttributes() {
		out[kv.GetKey()] = kv.GetValue().GetStringValue()
	}
	return out
}
