package metrics

import (
	"strings"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		name, in, canonical string
		kind                StatKind
		pct                 float64
	}{
		{"avg", "avg", "avg", StatAvg, 0},
		{"min", "min", "min", StatMin, 0},
		{"max", "max", "max", StatMax, 0},
		{"med", "med", "med", StatMed, 0},
		{"count", "count", "count", StatCount, 0},
		{"sum", "sum", "sum", StatSum, 0},
		{"rate", "rate", "rate", StatRate, 0},
		{"value", "value", "value", StatValue, 0},
		{"percentile", "p(95)", "p(95)", StatPercentile, 95},
		{"decimal percentile", "p(99.9)", "p(99.9)", StatPercentile, 99.9},
		{"percentile 0", "p(0)", "p(0)", StatPercentile, 0},
		{"percentile 100", "p(100)", "p(100)", StatPercentile, 100},
		{"trailing zeros", "p(95.00)", "p(95)", StatPercentile, 95},
		{"leading zeros", "p(095)", "p(95)", StatPercentile, 95},
		{"trailing point", "p(95.)", "p(95)", StatPercentile, 95},
		{"leading point", "p(.5)", "p(0.5)", StatPercentile, 0.5},
		{"100 with zeros", "p(100.000)", "p(100)", StatPercentile, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseStat(tt.in)
			if err != nil {
				t.Fatalf("ParseStat(%q): %v", tt.in, err)
			}
			if s.Kind != tt.kind || s.Percentile != tt.pct {
				t.Errorf("ParseStat(%q) = kind %d pct %v, want %d %v", tt.in, s.Kind, s.Percentile, tt.kind, tt.pct)
			}
			if got := s.String(); got != tt.canonical {
				t.Errorf("String() = %q, want %q", got, tt.canonical)
			}
			again, err := ParseStat(s.String())
			if err != nil || again != s {
				t.Errorf("ParseStat(%q) = %+v, %v; want %+v", s.String(), again, err, s)
			}
		})
	}
}

func TestParseStatInvalid(t *testing.T) {
	tests := []struct{ name, in, wantErr string }{
		{"empty", "", "unknown stat"},
		{"unknown name", "mean", "unknown stat"},
		{"upper case", "AVG", "unknown stat"},
		{"space around name", " avg", "unknown stat"},
		{"percentile without parentheses", "p95", "unknown stat"},
		{"percentile above 100", "p(100.1)", "invalid percentile"},
		{"negative percentile", "p(-1)", "invalid percentile"},
		{"plus sign", "p(+5)", "invalid percentile"},
		{"exponent", "p(1e1)", "invalid percentile"},
		{"hexadecimal", "p(0x1p4)", "invalid percentile"},
		{"infinity", "p(Inf)", "invalid percentile"},
		{"nan", "p(NaN)", "invalid percentile"},
		{"underscore", "p(9_5)", "invalid percentile"},
		{"empty percentile", "p()", "invalid percentile"},
		{"lone point", "p(.)", "invalid percentile"},
		{"unclosed", "p(95", "invalid percentile"},
		{"spaces inside", "p( 95 )", "invalid percentile"},
		{"text after", "p(95)x", "invalid percentile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseStat(tt.in)
			if err == nil {
				t.Fatalf("ParseStat(%q) = %+v, want error", tt.in, s)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.wantErr) || !strings.Contains(msg, `"`+tt.in+`"`) {
				t.Errorf("error %q does not contain %q and the quoted stat", msg, tt.wantErr)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q spans several lines", msg)
			}
		})
	}
}

// TestStatPercentileFraction checks that p(N) reads the double nearest to
// N/100, which N/100 computed in floating point is not for N = 99.9.
func TestStatPercentileFraction(t *testing.T) {
	s, err := ParseStat("p(99.9)")
	if err != nil {
		t.Fatal(err)
	}
	if s.fraction != 0.999 {
		t.Errorf("fraction = %v, want 0.999", s.fraction)
	}
}

func TestStatValidFor(t *testing.T) {
	all := []string{"avg", "min", "max", "med", "count", "sum", "rate", "value", "p(95)"}
	allowed := map[StatUse]map[MetricType]string{
		InThreshold: {Counter: "count rate", Gauge: "value", Rate: "rate", Trend: "avg min max med p(95)"},
		InSummary:   {Trend: "avg min max med count p(95)"},
		InSeries:    {Trend: "avg min max med count sum p(95)"},
	}
	for _, use := range []StatUse{InThreshold, InSummary, InSeries} {
		for _, typ := range []MetricType{Counter, Gauge, Rate, Trend} {
			ok := strings.Fields(allowed[use][typ])
			for _, name := range all {
				t.Run(use.String()+"/"+typ.String()+"/"+name, func(t *testing.T) {
					s, err := ParseStat(name)
					if err != nil {
						t.Fatal(err)
					}
					err = s.ValidFor(typ, use)
					if want := contains(ok, name); (err == nil) != want {
						t.Fatalf("ValidFor(%s, %s) = %v, want allowed=%v", typ, use, err, want)
					}
					if err != nil && (!strings.Contains(err.Error(), `"`+name+`"`) || !strings.Contains(err.Error(), typ.String())) {
						t.Errorf("error %q does not name %q and %s", err, name, typ)
					}
				})
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestStatCompute(t *testing.T) {
	counter := newMetric("c", Counter, Default)
	counter.Sink.Add(30)
	gauge := newMetric("g", Gauge, Default)
	gauge.Sink.Add(7)
	gauge.Sink.Add(3)
	rate := newMetric("r", Rate, Default)
	for _, v := range []float64{1, 0, 1, 1} {
		rate.Sink.Add(v)
	}
	trend := trend1to100()
	empty := newMetric("e", Trend, Time)
	tests := []struct {
		name string
		m    *Metric
		stat string
		want float64
		ok   bool
	}{
		{"counter count", counter, "count", 30, true},
		{"counter rate over 10s", counter, "rate", 3, true},
		{"counter avg", counter, "avg", 0, false},
		{"gauge value", gauge, "value", 3, true},
		{"gauge min", gauge, "min", 0, false},
		{"rate rate", rate, "rate", 0.75, true},
		{"rate count", rate, "count", 0, false},
		{"trend avg", trend, "avg", 50.5, true},
		{"trend min", trend, "min", 1, true},
		{"trend max", trend, "max", 100, true},
		{"trend med", trend, "med", 50.5, true},
		{"trend count", trend, "count", 100, true},
		{"trend sum", trend, "sum", 5050, true},
		{"trend p(95)", trend, "p(95)", 95.05, true},
		{"trend value", trend, "value", 0, false},
		{"empty trend min", empty, "min", 0, true},
		{"empty trend p(99)", empty, "p(99)", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseStat(tt.stat)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := s.Compute(tt.m.Sink, 10*time.Second)
			if ok != tt.ok || ok && got != tt.want {
				t.Errorf("Compute = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// FuzzParseStat checks that ParseStat never panics, that every stat it
// accepts has a canonical name that parses back to the same Stat, and that
// the stat applies to at least one metric type somewhere.
func FuzzParseStat(f *testing.F) {
	for _, seed := range []string{
		"avg", "min", "max", "med", "count", "sum", "rate", "value", "p(95)", "p(99.9)",
		"p(0)", "p(100)", "p(100.1)", "p(95.000)", "p(.5)", "p(5.)", "p()", "p(", "p(1e2)",
		"p( 9 )", "AVG", "", "p(-0)", "p(00000000000000000000000000001)",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseStat(in)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q spans several lines", err)
			}
			return
		}
		again, err := ParseStat(s.String())
		if err != nil || again != s {
			t.Fatalf("ParseStat(%q) = %+v; its canonical form %q parsed to %+v, %v", in, s, s.String(), again, err)
		}
		if s.Kind == StatPercentile && (s.Percentile < 0 || s.Percentile > 100 || s.fraction < 0 || s.fraction > 1) {
			t.Fatalf("ParseStat(%q) = %+v, out of range", in, s)
		}
		for _, use := range []StatUse{InThreshold, InSummary, InSeries} {
			for _, typ := range []MetricType{Counter, Gauge, Rate, Trend} {
				if s.ValidFor(typ, use) == nil {
					return
				}
			}
		}
		t.Fatalf("%q parsed but applies to no metric type", in)
	})
}
