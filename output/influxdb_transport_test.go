package output

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

// The tests of the influxdb output's transport against servers that fail,
// hang, hold writes, speak TLS or proxy: stubs, where no real InfluxDB
// can play the part.
// TestInfluxDBUnreachable writes to a port nobody listens on and to a
// server that accepts connections and never answers: AddSamples never
// blocks, samples beyond the buffer's cap are dropped and counted, and
// Stop returns after at most two request timeouts.
func TestInfluxDBUnreachable(t *testing.T) {
	t.Parallel()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	for _, tc := range []struct{ name, addr string }{{"refused", closedAddr}, {"silent", silent.Addr().String()}} {
		t.Run(tc.name, func(t *testing.T) {
			o, log := newInfluxForTest(t, "http://"+tc.addr+"/k6", map[string]string{
				"K6_INFLUXDB_PUSH_INTERVAL": "10ms", "K6_INFLUXDB_MAX_BUFFERED": "1000"})
			// The grace period is far: a silent server holds Stop for the
			// request in flight and the first last one, each up to its
			// timeout, not for the 50 requests the samples make.
			o.cfg.timeout, o.cfg.stopGrace, o.cfg.batchSize = 300*time.Millisecond, time.Minute, 20
			_ = o.Start()
			m := &metrics.Metric{Name: "http_reqs"}
			batch := make([]metrics.Sample, 100)
			for i := range batch {
				batch[i] = metrics.Sample{Metric: m, Time: time.Unix(1, 0), Value: 1}
			}
			start := time.Now()
			for range 500 {
				o.AddSamples(batch)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("adding 50,000 samples took %v", d)
			}
			start = time.Now()
			if err := o.Stop(); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("Stop took %v, want at most two request timeouts of 300ms (and some)", d)
			}
			out := log.String()
			if !strings.Contains(out, "points dropped") || !strings.Contains(out, "writes failed") {
				t.Errorf("log:\n%s\nwant the failed writes and the dropped points counted", out)
			}
		})
	}
}

// TestInfluxDBConcurrentWrites holds every write of a server: no more than
// K6_INFLUXDB_CONCURRENT_WRITES are in flight, the samples of the
// intervals meanwhile wait in the buffer, and once the server answers
// every sample arrives exactly once.
func TestInfluxDBConcurrentWrites(t *testing.T) {
	t.Parallel()
	var (
		mu               sync.Mutex
		inFlight, most   int
		points           int
		arrived, release = make(chan struct{}, 100), make(chan struct{})
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/query" {
			_, _ = io.WriteString(w, `{"results":[{"statement_id":0}]}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		arrived <- struct{}{}
		<-release
		mu.Lock()
		inFlight--
		points += bytes.Count(body, []byte("\n"))
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	o, log := newInfluxForTest(t, srv.URL+"/k6", map[string]string{"K6_INFLUXDB_PUSH_INTERVAL": "5ms", "K6_INFLUXDB_CONCURRENT_WRITES": "2"})
	_ = o.Start()
	m := &metrics.Metric{Name: "iterations"}
	sample := []metrics.Sample{{Metric: m, Time: time.Unix(1, 0), Value: 1}}
	added := 0
	for range 2 { // one write per sample until both writers hang
		o.AddSamples(sample)
		added++
		<-arrived
	}
	for range 20 { // samples of later intervals wait in the buffer
		o.AddSamples(sample)
		added++
		time.Sleep(5 * time.Millisecond) // an interval passes: no third write may start
	}
	close(release)
	_ = o.Stop()
	mu.Lock()
	defer mu.Unlock()
	if most != 2 || points != added {
		t.Errorf("at most %d writes in flight (want 2), %d points arrived (want %d)", most, points, added)
	}
	if log.String() != "" {
		t.Errorf("warnings: %s", log)
	}
}

// influxStub answers CREATE DATABASE and counts the lines written, with
// the Host of each write request.
type influxStub struct {
	mu    sync.Mutex
	lines int
	hosts []string
}

func (s *influxStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/query" {
		_, _ = io.WriteString(w, `{"results":[{"statement_id":0}]}`)
		return
	}
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.lines += bytes.Count(body, []byte("\n"))
	s.hosts = append(s.hosts, r.Host)
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// TestInfluxDBTLSAndProxy writes over HTTPS to a server with a
// self-signed certificate (refused, then accepted with
// K6_INFLUXDB_INSECURE) and through K6_INFLUXDB_HTTP_PROXY.
func TestInfluxDBTLSAndProxy(t *testing.T) {
	t.Parallel()
	sample := []metrics.Sample{{Metric: &metrics.Metric{Name: "vus"}, Time: time.Unix(1, 0), Value: 1}}
	write := func(url string, env map[string]string) string {
		o, log := newInfluxForTest(t, url, env)
		_ = o.Start()
		o.AddSamples(sample)
		_ = o.Stop()
		return log.String()
	}

	stub := &influxStub{}
	tlsSrv := httptest.NewTLSServer(stub)
	defer tlsSrv.Close()
	if log := write(tlsSrv.URL+"/k6", nil); !strings.Contains(log, "certificate") || stub.lines != 0 {
		t.Errorf("a self-signed certificate was not refused (%d lines written): %s", stub.lines, log)
	}
	if log := write(tlsSrv.URL+"/k6", map[string]string{"K6_INFLUXDB_INSECURE": "true"}); log != "" || stub.lines != 1 {
		t.Errorf("K6_INFLUXDB_INSECURE: %d lines written, log %s", stub.lines, log)
	}

	proxied := &influxStub{}
	proxy := httptest.NewServer(proxied) // a plain-HTTP proxy gets the request with its target host
	defer proxy.Close()
	if log := write("http://influx.invalid:8086/k6", map[string]string{"K6_INFLUXDB_HTTP_PROXY": proxy.URL}); log != "" || proxied.lines != 1 ||
		len(proxied.hosts) != 1 || proxied.hosts[0] != "influx.invalid:8086" {
		t.Errorf("through the proxy: %d lines, hosts %v, log %s", proxied.lines, proxied.hosts, log)
	}
}
