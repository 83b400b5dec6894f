package options

import (
	"strings"
	"testing"
)

func TestParseSegment(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"fraction pair", "1/3:2/3", "1/3:2/3"},
		{"end only", "1/4", "0:1/4"},
		{"decimals", "0.2:0.5", "1/5:1/2"},
		{"percentages", "25%:50%", "1/4:1/2"},
		{"mixed forms", "10%:2/3", "1/10:2/3"},
		{"full", "0:1", "0:1"},
		{"whole as percent", "100%", "0:1"},
		{"unreduced fraction", "2/4:1", "1/2:1"},
		{"leading dot", ".5:1", "1/2:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSegment(tt.in)
			if err != nil || s.String() != tt.want {
				t.Fatalf("ParseSegment(%q) = %v, %v; want %s", tt.in, s, err, tt.want)
			}
		})
	}
}

func TestParseSegmentErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "invalid value"},
		{"start equals end", "1/2:1/2", "start must be less than the end"},
		{"reversed", "2/3:1/3", "start must be less than the end"},
		{"zero end", "0", "start must be less than the end"},
		{"above one", "0:3/2", "more than 1"},
		{"above hundred percent", "150%", "more than 1"},
		{"negative", "-1/2:1", "invalid value"},
		{"division by zero", "1/0", "invalid value"},
		{"exponent", "1e-1", "invalid value"},
		{"three parts", "0:1/2:1", "invalid value"},
		{"words", "half", "invalid value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSegment(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseSegment(%q) error = %v, want %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestParseSequence(t *testing.T) {
	tests := []struct {
		name, in, want string
		segments       int
	}{
		{"quarters", "0,1/4,1/2,1", "0,1/4,1/2,1", 3},
		{"adds zero and one", "1/3,2/3", "0,1/3,2/3,1", 3},
		{"only one", "1", "0,1", 1},
		{"only zero", "0", "0,1", 1},
		{"percent and decimal", "0, 30%, 0.6, 1", "0,3/10,3/5,1", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := ParseSequence(tt.in)
			if err != nil || q.String() != tt.want || len(q.Segments()) != tt.segments {
				t.Fatalf("ParseSequence(%q) = %v (%d segments), %v; want %s",
					tt.in, q, len(q.Segments()), err, tt.want)
			}
		})
	}
}

func TestParseSequenceErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "invalid value"},
		{"empty entry", "0,,1", "invalid value"},
		{"not increasing", "0,1/2,1/4,1", "strictly increasing"},
		{"repeated", "0,1/2,1/2,1", "strictly increasing"},
		{"above one", "0,1/2,2", "more than 1"},
		{"garbage", "0,x,1", "invalid value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSequence(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseSequence(%q) error = %v, want %q", tt.in, err, tt.want)
			}
		})
	}
}

// FuzzParseSegment checks that accepted segments satisfy 0 ≤ from < to ≤ 1
// and read back from their String form.
func FuzzParseSegment(f *testing.F) {
	for _, s := range []string{"1/3:2/3", "50%", "0.25:1", "0:1", "1/0", "99999999999999999/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		seg, err := ParseSegment(s)
		if err != nil {
			return
		}
		if seg.From().Sign() < 0 || seg.From().Cmp(seg.To()) >= 0 || seg.To().Cmp(ratOne) > 0 {
			t.Fatalf("ParseSegment(%q) = %v out of range", s, seg)
		}
		back, err := ParseSegment(seg.String())
		if err != nil || back.String() != seg.String() {
			t.Fatalf("%q → %v → %v, %v", s, seg, back, err)
		}
	})
}

// FuzzParseSequence checks that accepted sequences start at 0, end at 1,
// increase strictly and read back from their String form.
func FuzzParseSequence(f *testing.F) {
	for _, s := range []string{"0,1/4,1/2,1", "1/3,2/3", "0,0.3,1", "10%,20%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseSequence(s)
		if err != nil {
			return
		}
		segs := q.Segments()
		if len(segs) == 0 || segs[0].From().Sign() != 0 || segs[len(segs)-1].To().Cmp(ratOne) != 0 {
			t.Fatalf("ParseSequence(%q) = %v does not span 0..1", s, q)
		}
		for i := 1; i < len(segs); i++ {
			if segs[i].From().Cmp(segs[i-1].To()) != 0 {
				t.Fatalf("ParseSequence(%q) = %v has a gap", s, q)
			}
		}
		back, err := ParseSequence(q.String())
		if err != nil || back.String() != q.String() {
			t.Fatalf("%q → %v → %v, %v", s, q, back, err)
		}
	})
}
