package metrics

import "testing"

// FuzzParseThreshold checks that ParseThreshold never panics, that every
// threshold it accepts keeps its source, parses again to the same threshold
// and validates against at least one metric type.
func FuzzParseThreshold(f *testing.F) {
	for _, seed := range []string{
		"p(95)<1500", "p(99.9) <= 2000", "avg<200", "min>=0", "max>1", "med!=3",
		"count===10", "rate==0.5", "value>-1", "p(101)<1", "p95<1", "avg<", "foo<1",
		"avg<1ms", "p(95)<<2", "  p( 90 )  <  .5e3 ", "", "<", "p(", "avg<1e999",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		th, err := ParseThreshold(ThresholdConfig{Source: src})
		if err != nil {
			return
		}
		if th.Source != src {
			t.Fatalf("Source = %q, want %q", th.Source, src)
		}
		again, err := ParseThreshold(ThresholdConfig{Source: th.Source})
		if err != nil || *again != *th {
			t.Fatalf("re-parsing %q gave %+v, %v; want %+v", src, again, err, th)
		}
		valid := 0
		for _, typ := range []MetricType{Counter, Gauge, Rate, Trend} {
			if th.Validate(typ) == nil {
				valid++
			}
		}
		if valid == 0 {
			t.Fatalf("%q parsed but applies to no metric type", src)
		}
	})
}
