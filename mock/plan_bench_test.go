package mock

import "testing"

// BenchmarkPlan measures planning one request per bucket and dialect.
func BenchmarkPlan(b *testing.B) {
	cfg := DefaultConfig()
	global, _ := parseFaults(nil, 0)
	for _, d := range []Dialect{Business, OpenAI, Anthropic} {
		b.Run(string(d), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				req, _ := parseRequest(d, []byte(`{"bucket":"`+BucketNames[i%5]+`","tenant":"t1"}`), "", global)
				req.seed = int64(i)
				plan(d, &req, &cfg)
				i++
			}
		})
	}
}

// BenchmarkAppendEvent measures rendering the events of one stream.
func BenchmarkAppendEvent(b *testing.B) {
	cfg := DefaultConfig()
	for _, d := range []Dialect{Business, OpenAI, Anthropic} {
		p, _ := Plan(d, []byte(`{"bucket":"single_tool","seed":1,"stream_options":{"include_usage":true}}`), cfg)
		b.Run(string(d), func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 4096)
			for b.Loop() {
				for i := range p.Events {
					buf = appendEvent(buf[:0], &p, &p.Events[i], 1234.567, -1)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(p.Events)), "ns/event")
		})
	}
}
