package mock

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/eventually"
)

// load is a closed-loop client holding a fixed number of concurrent streams
// against the mock: each of its goroutines sends a request, reads the
// stream to its end, and sends the next, until the run ends.
type load struct {
	url      string
	streams  int           // concurrent streams
	duration time.Duration // run time, ramp-up included
	rampUp   time.Duration // the streams start evenly over this time
	tenants  int           // requests spread over this many tenants
}

// loadResult is what a load client measured.
type loadResult struct {
	Completed, Failed, Events int64
	// LagP50MS and LagP99MS are the client arrival time of the data events
	// minus their server_ms: transport delay plus the client's own lateness.
	LagP50MS, LagP99MS float64
	// CPUSeconds is the CPU time of the client process (0 in process).
	CPUSeconds float64
	Elapsed    time.Duration
}

// run runs the load client until its duration is over.
func (l load) run() loadResult {
	tr := &http.Transport{MaxIdleConnsPerHost: l.streams, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	ctx, cancel := context.WithTimeout(context.Background(), l.duration)
	defer cancel()
	var res loadResult
	var lag stats
	var wg sync.WaitGroup
	began := time.Now()
	for i := range l.streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-time.After(l.rampUp * time.Duration(i) / time.Duration(l.streams)):
			case <-ctx.Done():
				return
			}
			for n := 0; ctx.Err() == nil; n++ {
				body := `{"bucket":"` + BucketNames[(i+n)%len(BucketNames)] + `","tenant":"t` + strconv.Itoa(i%l.tenants) + `"}`
				ok, events := stream1(ctx, client, l.url+"/chat", body, &lag)
				atomic.AddInt64(&res.Events, events)
				switch {
				case ok:
					atomic.AddInt64(&res.Completed, 1)
				case ctx.Err() == nil:
					atomic.AddInt64(&res.Failed, 1)
				}
			}
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(began)
	st := lag.snapshot()
	res.LagP50MS, res.LagP99MS = durationMS(st.LateP50), durationMS(st.LateP99)
	return res
}

// activeRange samples srv's active streams every 100 ms from after until
// until and returns the fewest and the most seen.
func activeRange(srv *Server, after, until time.Time) (lo, hi int64) {
	lo = math.MaxInt64
	tick := time.NewTicker(100 * time.Millisecond) // the sampling period
	defer tick.Stop()
	for now := range tick.C {
		if now.After(until) {
			break
		}
		if now.After(after) {
			a := srv.Stats().Active
			lo, hi = min(lo, a), max(hi, a)
		}
	}
	if lo == math.MaxInt64 {
		lo = 0
	}
	return lo, hi
}

// stream1 sends one request and reads its stream to the end, recording
// each data event's lag behind its server_ms. It reports whether the
// stream completed, and the number of events read.
func stream1(ctx context.Context, c *http.Client, url, body string, lag *stats) (bool, int64) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	sent := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return false, 0
	}
	defer resp.Body.Close()
	r := bufio.NewReaderSize(resp.Body, 4096)
	key := []byte(`"server_ms":`)
	var n int64
	var local streamStats
	defer lag.merge(&local)
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return false, n
		}
		if len(line) < 2 || line[0] == ':' {
			continue
		}
		n++
		i := bytes.LastIndex(line, key)
		if i < 0 {
			continue
		}
		num := line[i+len(key):]
		num = num[:bytes.IndexAny(num, "},")]
		ms, _ := strconv.ParseFloat(string(num), 64)
		local.sent(time.Since(sent) - msDuration(ms))
		if bytes.Contains(line, []byte(`"done":true`)) {
			return true, n
		}
	}
}

// TestConcurrentStreams holds 300 concurrent streams (30 under the race
// detector) of short requests with sparse tokens for 3.5 seconds, and
// checks that streams complete and that the server sends its events on
// time: a regression to busy loops or a shared lock shows here. It is not a
// capacity test (see BenchmarkStreams) and keeps to ~5,000 events/s so that
// it holds on a busy machine.
func TestConcurrentStreams(t *testing.T) {
	cfg := fastConfig()
	for _, n := range BucketNames {
		b := cfg.Buckets.get(n)
		b.Tool = ms(60, 100) // keep tool stages longer than a heartbeat
	}
	cfg.InterToken = ms(60, 100)
	cfg.HeartbeatMS = 250
	cfg.ModelSlots = 0 // every stream runs at once
	srv, url := start(t, cfg)
	began := time.Now()
	l := load{url: url, streams: 300, duration: 3500 * time.Millisecond, rampUp: 300 * time.Millisecond, tenants: 10}
	if raceEnabled {
		l.streams = 30
	}
	done := make(chan loadResult)
	go func() { done <- l.run() }()
	lo, hi := activeRange(srv, began.Add(time.Second), began.Add(3400*time.Millisecond))
	res := <-done
	// Stream statistics merge into the server's when streams end.
	eventually.True(t, "every stream has ended", func() bool { return srv.Stats().Active == 0 })
	st := srv.Stats()
	t.Logf("%d streams completed, %d failed, %.0f events/s; server lateness p50 %v p99 %v max %v; client lag p50 %.1fms p99 %.1fms; active %d–%d",
		res.Completed, res.Failed, float64(st.Events)/res.Elapsed.Seconds(), st.LateP50, st.LateP99, st.LateMax,
		res.LagP50MS, res.LagP99MS, lo, hi)
	if res.Failed > 0 || res.Completed < int64(l.streams)/2 {
		t.Errorf("%d completed, %d failed", res.Completed, res.Failed)
	}
	// A busy loop or a lock convoy moves the median; other programs on a
	// shared machine move only the tail, hence the loose p99 bound.
	if st.LateP50 > 10*time.Millisecond || st.LateP99 > 250*time.Millisecond {
		t.Errorf("server lateness p50 %v, p99 %v: events leave late", st.LateP50, st.LateP99)
	}
}

// BenchmarkStreams holds MOCK_STREAMS (default 3000) concurrent streams
// with the default (realistic) latencies for MOCK_DURATION seconds (default
// 20) on loopback, spread over 64 tenants so that no tenant queue builds up.
// The server runs in the benchmark process; the client runs in a child
// process (this test binary again, see TestMain), so each side's CPU is
// measured on its own. It reports the server's send lateness (late-p50-ms,
// late-p99-ms, late-max-ms: how long after its scheduled time an event was
// written), the client's lag behind server_ms (lag-p99-ms), the fewest
// streams held after the ramp-up (streams-min), events and completed
// streams per second, the server's live heap and stacks with the streams
// open (server-MB), the CPU cores each side used (server-cores, of which
// server-sys-cores in the kernel; client-cores) and the rest of the machine's busy time (other-cores:
// kernel network work not charged to either process, and other programs;
// a run where other programs compete is not a measurement of the mock).
// Run it with
//
//	go test -run '^$' -bench BenchmarkStreams -benchtime 1x ./mock/
//
// and, to pin both processes to two cores, prefix taskset -c 0,1.
func BenchmarkStreams(b *testing.B) {
	streams := envInt("MOCK_STREAMS", 3000)
	dur := time.Duration(envInt("MOCK_DURATION", 20)) * time.Second
	const rampUp = 2 * time.Second
	for range b.N {
		cfg := DefaultConfig()
		cfg.ModelSlots = 0 // every stream runs at once: a test of the mock, not of the assistant's capacity
		srv, url := start(b, cfg)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "MOCK_LOAD_URL="+url, "MOCK_STREAMS="+strconv.Itoa(streams),
			"MOCK_DURATION="+strconv.Itoa(int(dur/time.Second)), "MOCK_RAMP_UP_MS="+strconv.Itoa(int(rampUp/time.Millisecond)))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, os.Stderr
		user0, sys0 := cpuSplit()
		busy0, began := machineBusy(), time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		lo, _ := activeRange(srv, began.Add(rampUp+time.Second), began.Add(dur-500*time.Millisecond))
		var mem runtime.MemStats
		runtime.GC() // count live memory only, while the streams are open
		runtime.ReadMemStats(&mem)
		if err := cmd.Wait(); err != nil {
			b.Fatalf("load client: %v\n%s", err, out.String())
		}
		user1, sys1 := cpuSplit()
		user, sys := user1-user0, sys1-sys0
		cpu, busy := user+sys, machineBusy()-busy0
		var res loadResult
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			b.Fatalf("load client output %q: %v", out.String(), err)
		}
		st := srv.Stats()
		srv.Close()
		if res.Failed > 0 {
			b.Errorf("%d streams failed", res.Failed)
		}
		secs := res.Elapsed.Seconds()
		b.ReportMetric(float64(streams), "streams")
		b.ReportMetric(float64(lo), "streams-min")
		b.ReportMetric(float64(res.Completed)/secs, "completed/s")
		b.ReportMetric(float64(st.Events)/secs, "events/s")
		b.ReportMetric(durationMS(st.LateP50), "late-p50-ms")
		b.ReportMetric(durationMS(st.LateP99), "late-p99-ms")
		b.ReportMetric(durationMS(st.LateMax), "late-max-ms")
		b.ReportMetric(res.LagP99MS, "lag-p99-ms")
		b.ReportMetric(float64(mem.HeapInuse+mem.StackInuse)/(1<<20), "server-MB")
		if cpu > 0 {
			b.ReportMetric(cpu.Seconds()/secs, "server-cores")
			b.ReportMetric(sys.Seconds()/secs, "server-sys-cores")
			b.ReportMetric(res.CPUSeconds/secs, "client-cores")
		}
		if busy > 0 && cpu > 0 {
			// Other processes (and softirq work) on the machine.
			b.ReportMetric(busy.Seconds()/secs-cpu.Seconds()/secs-res.CPUSeconds/secs, "other-cores")
		}
	}
}

// TestMain runs the load client of BenchmarkStreams instead of the tests
// when MOCK_LOAD_URL is set, printing its loadResult as JSON. Otherwise it
// runs the tests, by default up to 16 parallel tests at once (not
// GOMAXPROCS): they spend their time waiting for scheduled events, not
// computing. An explicit -test.parallel wins.
func TestMain(m *testing.M) {
	url := os.Getenv("MOCK_LOAD_URL")
	if url == "" {
		flag.Parse()
		explicit := false
		flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
		if !explicit {
			flag.Set("test.parallel", "16")
		}
		os.Exit(m.Run())
	}
	cpu0 := cpuTime()
	res := load{
		url: url, streams: envInt("MOCK_STREAMS", 3000), tenants: 64,
		duration: time.Duration(envInt("MOCK_DURATION", 20)) * time.Second,
		rampUp:   time.Duration(envInt("MOCK_RAMP_UP_MS", 2000)) * time.Millisecond,
	}.run()
	res.CPUSeconds = (cpuTime() - cpu0).Seconds()
	json.NewEncoder(os.Stdout).Encode(res)
}

// envInt returns the integer environment variable name, or def.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
