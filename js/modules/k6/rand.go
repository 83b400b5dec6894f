package k6

import (
	"math/rand/v2"

	"github.com/grafana/sobek"
)

// newRandSource returns a deterministic Math.random source for a seed.
func newRandSource(seed int64) sobek.RandSource {
	r := rand.New(rand.NewPCG(uint64(seed), 0))
	return r.Float64
}
