// Package influxtest starts a real InfluxDB 1.x (Debian's influxd) for a
// test, on free loopback ports with its data in the test's temporary
// directory, and reads points back through its /query API (InfluxQL).
package influxtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/syncbuf"
)

// Binary is the influxd on PATH: Debian's package influxdb installs
// /usr/bin/influxd, and scripts/deps (make deps) installs it when missing.
const Binary = "influxd"

// Admin and AdminPassword are the admin user of a server started with
// auth.
const (
	Admin         = "admin"
	AdminPassword = "influxtest-admin-pw"
)

// Server is a running influxd.
type Server struct {
	// Base is http://127.0.0.1:port.
	Base string
	auth bool
	log  *syncbuf.Buffer
}

// Log returns what the server printed so far.
func (s *Server) Log() string { return s.log.String() }

// Start runs influxd until the test ends; with auth, HTTP authentication
// is on and the user Admin exists. The test fails (it is not skipped) when
// the binary is missing: the round trip is part of the suite.
func Start(t testing.TB, auth bool) *Server {
	t.Helper()
	exe, err := exec.LookPath(Binary)
	if err != nil {
		t.Fatalf("%s is missing: run make deps, or apt-get install -y influxdb: %v", Binary, err)
	}
	dir := t.TempDir()
	httpAddr, rpcAddr := freeLoopbackAddr(t), freeLoopbackAddr(t)
	config := fmt.Sprintf(`reporting-disabled = true
bind-address = %q
[meta]
  dir = %q
[data]
  dir = %q
  wal-dir = %q
  query-log-enabled = false
[monitor]
  store-enabled = false
[continuous_queries]
  enabled = false
[http]
  bind-address = %q
  auth-enabled = %t
  log-enabled = false
[logging]
  level = "warn"
`, rpcAddr, filepath.Join(dir, "meta"), filepath.Join(dir, "data"), filepath.Join(dir, "wal"), httpAddr, auth)
	configPath := filepath.Join(dir, "influxdb.conf")
	if err := os.WriteFile(configPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, exe, "-config", configPath)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	s := &Server{Base: "http://" + httpAddr, auth: auth, log: &syncbuf.Buffer{}}
	cmd.Stdout, cmd.Stderr = s.log, s.log
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("starting influxd: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cancel(); <-exited })
	s.waitReady(t, exited)
	if auth {
		s.mustQuery(t, "", fmt.Sprintf("CREATE USER %s WITH PASSWORD '%s' WITH ALL PRIVILEGES", Admin, AdminPassword))
	}
	return s
}

// waitReady polls /ping until it answers 204, for at most 30 s.
func (s *Server) waitReady(t testing.TB, exited <-chan struct{}) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(s.Base + "/ping")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusNoContent {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("influxd not ready after 30s (last error %v):\n%s", err, s.log)
		}
		select { // poll again in 50 ms, unless it exits meanwhile
		case <-exited:
			t.Fatalf("influxd exited before it was ready:\n%s", s.log)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// freeLoopbackAddr returns a loopback address with a port nobody listens on.
func freeLoopbackAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// Series is one series of a query's result.
type Series struct {
	Name    string            `json:"name"`
	Tags    map[string]string `json:"tags"`
	Columns []string          `json:"columns"`
	Values  [][]any           `json:"values"`
}

// Rows returns the series' rows as maps from column to value; numbers are
// json.Number.
func (s Series) Rows() []map[string]any {
	out := make([]map[string]any, len(s.Values))
	for i, v := range s.Values {
		row := map[string]any{}
		for j, c := range s.Columns {
			if j < len(v) {
				row[c] = v[j]
			}
		}
		out[i] = row
	}
	return out
}

// Query runs InfluxQL on db (as Admin when the server has auth) with
// timestamps in ns, and returns the first statement's series, failing the
// test on any error.
func (s *Server) Query(t testing.TB, db, q string) []Series {
	t.Helper()
	return s.mustQuery(t, db, q)
}

func (s *Server) mustQuery(t testing.TB, db, q string) []Series {
	t.Helper()
	form := url.Values{"q": {q}, "epoch": {"ns"}}
	if db != "" {
		form.Set("db", db)
	}
	req, err := http.NewRequest(http.MethodPost, s.Base+"/query", bytes.NewReader([]byte(form.Encode())))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if s.auth {
		req.SetBasicAuth(Admin, AdminPassword)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("query %s: %v", q, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var r struct {
		Error   string `json:"error"`
		Results []struct {
			Error  string   `json:"error"`
			Series []Series `json:"series"`
		} `json:"results"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil || resp.StatusCode != http.StatusOK || r.Error != "" || len(r.Results) == 0 || r.Results[0].Error != "" {
		t.Fatalf("query %s: %s %s", q, resp.Status, body)
	}
	return r.Results[0].Series
}

// Number runs a query that must return one series with one row and
// returns the value of its column col.
func (s *Server) Number(t testing.TB, db, q, col string) float64 {
	t.Helper()
	series := s.Query(t, db, q)
	if len(series) != 1 || len(series[0].Values) != 1 {
		t.Fatalf("query %s: %d series, want 1 with 1 row: %+v", q, len(series), series)
	}
	n, ok := series[0].Rows()[0][col].(json.Number)
	if !ok {
		t.Fatalf("query %s: column %s = %v, want a number", q, col, series[0].Rows()[0][col])
	}
	f, err := n.Float64()
	if err != nil {
		t.Fatal(err)
	}
	return f
}
