package sse

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTextBufKeepsTheText appends random pieces, reading the text now and
// then as predicates do, and checks every snapshot against a
// strings.Builder: snapshots stay intact as the text grows, and Final is
// the whole text.
func TestTextBufKeepsTheText(t *testing.T) {
	for _, readEvery := range []int{1, 7, 1000, 0} {
		rng := rand.New(rand.NewPCG(1, uint64(readEvery)))
		var b textBuf
		var want strings.Builder
		type snapshot struct{ got, want string }
		var snaps []snapshot
		for i := range 3000 {
			piece := strings.Repeat(string(rune('a'+i%26)), rng.IntN(3000))
			b.WriteString(piece)
			want.WriteString(piece)
			if readEvery > 0 && i%readEvery == 0 {
				snaps = append(snaps, snapshot{b.String(), want.String()})
			}
		}
		if b.Len() != want.Len() {
			t.Fatalf("read every %d: Len %d, want %d", readEvery, b.Len(), want.Len())
		}
		for i, s := range snaps {
			if s.got != s.want {
				t.Fatalf("read every %d: snapshot %d changed", readEvery, i)
			}
		}
		if got := b.Final(); got != want.String() {
			t.Fatalf("read every %d: Final differs", readEvery)
		}
	}
}

// TestTextBufGrowsWithoutCopies checks what makes a stream's memory close
// to its text: appended without reads, a 16 MiB text allocates little
// more than itself, and once more for Final's join.
func TestTextBufGrowsWithoutCopies(t *testing.T) {
	piece := strings.Repeat("x", 1000)
	allocs := testing.AllocsPerRun(1, func() {
		var b textBuf
		for range 16 << 10 {
			b.WriteString(piece)
		}
		if len(b.Final()) != 16<<10*1000 {
			t.Fatal("short text")
		}
	})
	// Chunks of an eighth of the text so far, at most 4 MiB: about 60 of
	// them for 16 MB, and the join.
	if allocs > 100 {
		t.Errorf("%v allocations for a 16 MB text", allocs)
	}
	var b textBuf
	for range 16 << 10 {
		b.WriteString(piece)
	}
	held := cap(b.flat)
	for _, c := range b.tail {
		held += cap(c)
	}
	if over := float64(held)/float64(b.Len()) - 1; over > 0.15 {
		t.Errorf("chunks hold %.0f%% more than the text", 100*over)
	}
	if s := b.Final(); cap(b.flat) != len(s) {
		t.Errorf("Final's text has capacity %d for %d bytes", cap(b.flat), len(s))
	}
}
