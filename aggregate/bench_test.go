package aggregate

import (
	"fmt"
	"io"
	"net/http"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// BenchmarkAggregate8x5000 is one 2-second window of an aggregator fed by
// 8 runners of 5,000 samples/s each, at a point of the test (elapsed): the
// 8 runners' posts decoded and kept, then one merge and evaluation of the
// thresholds. Every sample is a Trend value (the costly kind: posts are
// cumulative and carry every value so far). It reports the aggregator's
// CPU time (user + system, GC included) per second of aggregation
// (cpu-s/s), the heap it keeps between windows (retained-MB), one post's
// size (post-MB), a runner's cost of encoding one post (encode-ms), and the
// window the aggregator then asks for (window-s: evaluations and each
// runner's posts that far apart, paceFactor times the window's cost when
// that exceeds 2 s) with the CPU it then takes (paced-cpu-s/s).
func BenchmarkAggregate8x5000(b *testing.B) {
	const runners, rate, window = 8, 5000, 2 * time.Second
	for _, elapsed := range []time.Duration{time.Minute, 5 * time.Minute} {
		b.Run(fmt.Sprintf("elapsed=%s", elapsed), func(b *testing.B) {
			values := int(elapsed.Seconds()) * rate
			bodies := make([][]byte, runners)
			var encode time.Duration
			for i := range bodies {
				f := shareFile(i, runners, values, values, "")
				start := time.Now()
				bodies[i] = encoded(f)
				encode += time.Since(start)
			}
			a := New(Config{Interval: window, Log: io.Discard, Token: testToken})
			h := a.Handler()
			runtime.GC()
			b.ResetTimer()
			cpu0 := cpuTime()
			for range b.N {
				for i, body := range bodies {
					if rec := runnerN(i).send(h, body, false); rec.Code != http.StatusNoContent {
						b.Fatalf("post: %d %s", rec.Code, rec.Body)
					}
				}
				a.evaluate()
			}
			cpu := cpuTime() - cpu0
			b.StopTimer()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			a.mu.Lock()
			paced := a.pace()
			a.mu.Unlock()
			b.ReportMetric(cpu.Seconds()/float64(b.N)/window.Seconds(), "cpu-s/s")
			b.ReportMetric(paced.Seconds(), "window-s")
			b.ReportMetric(cpu.Seconds()/float64(b.N)/paced.Seconds(), "paced-cpu-s/s")
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "retained-MB")
			b.ReportMetric(float64(len(bodies[0]))/(1<<20), "post-MB")
			b.ReportMetric(float64(encode.Milliseconds())/runners, "encode-ms")
			runtime.KeepAlive(a)
		})
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
