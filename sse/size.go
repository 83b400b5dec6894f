package sse

import (
	"fmt"
	"strconv"
	"strings"
)

// byteUnits maps size suffixes to their multipliers: decimal kB/MB/GB and
// binary KiB/MiB/GiB (K, M, G alone are binary).
var byteUnits = []struct {
	suffix string
	mult   int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
	{"kb", 1000}, {"mb", 1000 * 1000}, {"gb", 1000 * 1000 * 1000},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1},
}

// ParseByteSize parses a size such as "1MiB", "512KiB", "64kB", "4096" or
// "2.5MB" into bytes. Units are case-insensitive; a bare number is bytes.
func ParseByteSize(s string) (int, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 || f*float64(mult) > float64(1<<40) {
		return 0, fmt.Errorf("%w: size %q: want a number of bytes like 1MiB, 512KiB or 65536", ErrInvalidRequest, s)
	}
	return int(f * float64(mult)), nil
}
