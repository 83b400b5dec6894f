package metrics

import (
	"sync"
	"testing"
	"time"
)

func TestEngineConcurrentPushLosesNothing(t *testing.T) {
	reg := NewRegistry()
	e := NewEngine(reg)
	trend := reg.MustNewMetric("tr", Trend)
	counter := reg.MustNewMetric("ct", Counter)
	sub, err := reg.Submetric(counter, "k:odd")
	if err != nil {
		t.Fatal(err)
	}
	var seen int
	e.Subscribe(func(s []Sample) { seen += len(s) })
	var wg sync.WaitGroup
	const workers, per = 8, 5000
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tags := Tags{"k": []string{"even", "odd"}[w%2]}
			for i := range per {
				e.Push(Sample{Metric: trend, Tags: tags, Time: time.Now(), Value: float64(i)},
					Sample{Metric: counter, Tags: tags, Time: time.Now(), Value: 1})
			}
		}()
	}
	wg.Wait()
	if n := trend.Sink.(*TrendSink).Count(); n != workers*per {
		t.Fatalf("trend has %d values, want %d", n, workers*per)
	}
	if got := counter.Sink.(*CounterSink).Sum; got != workers*per {
		t.Fatalf("counter = %v", got)
	}
	if got := sub.Sink.(*CounterSink).Sum; got != workers*per/2 {
		t.Fatalf("submetric = %v, want %d", got, workers*per/2)
	}
	if seen != 2*workers*per {
		t.Fatalf("subscriber saw %d samples", seen)
	}
}

func TestTrendPercentiles(t *testing.T) {
	s := &TrendSink{}
	for i := 100; i >= 1; i-- {
		s.Add(float64(i))
	}
	cases := []struct {
		p, want float64
	}{{0, 1}, {0.5, 50.5}, {0.9, 90.1}, {0.95, 95.05}, {0.999, 99.901}, {1, 100}}
	for _, c := range cases {
		if got := s.P(c.p); abs(got-c.want) > 1e-9 {
			t.Errorf("P(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if s.Avg() != 50.5 || s.Min != 1 || s.Max != 100 {
		t.Errorf("avg %v min %v max %v", s.Avg(), s.Min, s.Max)
	}
	one := &TrendSink{}
	one.Add(7)
	if one.P(0.95) != 7 || (&TrendSink{}).P(0.95) != 0 {
		t.Error("one value is its own percentile; none reads 0")
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// BenchmarkEnginePushTrend measures Trend ingestion through the engine in
// batches of 100, the way VUs push. Target: ≥ 2 M samples/s on one core.
func BenchmarkEnginePushTrend(b *testing.B) {
	reg := NewRegistry()
	e := NewEngine(reg)
	m := reg.MustNewMetric("tr", Trend, Time)
	_, _ = reg.Submetric(m, "bucket:qa")
	tags := Tags{"scenario": "s", "bucket": "qa"}
	batch := make([]Sample, 100)
	now := time.Now()
	for i := range batch {
		batch[i] = Sample{Metric: m, Tags: tags, Time: now, Value: float64(i)}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i += len(batch) {
		e.Push(batch...)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "samples/s")
}

// BenchmarkEnginePushSingle measures one sample per Push call.
func BenchmarkEnginePushSingle(b *testing.B) {
	reg := NewRegistry()
	e := NewEngine(reg)
	m := reg.MustNewMetric("tr", Trend, Time)
	tags := Tags{"scenario": "s"}
	now := time.Now()
	for i := 0; i < b.N; i++ {
		e.Push(Sample{Metric: m, Tags: tags, Time: now, Value: float64(i)})
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "samples/s")
}

// TestSubmetricKeepsSpelling checks that a submetric is named with its
// selector as first written, and found again whatever the spacing.
func TestSubmetricKeepsSpelling(t *testing.T) {
	reg := NewRegistry()
	parent := reg.MustNewMetric("latency", Trend, Time)
	sub, err := reg.Submetric(parent, "kind: odd, 'size':big")
	if err != nil {
		t.Fatal(err)
	}
	if sub.Name != "latency{kind: odd, 'size':big}" {
		t.Errorf("name = %q, want the selector as written", sub.Name)
	}
	again, err := reg.Submetric(parent, "size:big,kind:odd")
	if err != nil || again != sub {
		t.Errorf("same tags spelled differently gave %v, %v; want the same submetric", again, err)
	}
}
