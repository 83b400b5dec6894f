package summary

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/usefullatency/usefullatency/metrics"
)

// timeUnits maps a summaryTimeUnit to its suffix and its length in
// milliseconds.
var timeUnits = map[string]struct {
	suffix string
	ms     float64
}{
	"s":  {"s", 1000},
	"ms": {"ms", 1},
	"us": {"µs", 0.001},
}

// FormatValue formats v, a value of a metric that contains vt, the way the
// text summary shows it: a duration for time values (v in milliseconds, unit
// as in FormatTime), a decimal byte size for data values, a plain number
// otherwise.
func FormatValue(v float64, vt metrics.ValueType, unit string) string {
	switch vt {
	case metrics.Time:
		return FormatTime(v, unit)
	case metrics.Data:
		return FormatBytes(v)
	}
	return FormatNumber(v)
}

// FormatTime formats ms, a duration in milliseconds. With unit "s", "ms" or
// "us" the value is shown in that unit, rounded to 2 decimals ("0.15s",
// "148.21ms", "1500.00µs"). With any other unit, "" included, the unit is
// chosen by magnitude and the value truncated to at most 2 decimals, with
// trailing zeros removed: "0s", "512ns", "12.25µs", "148.21ms", "1.5s",
// "1m2s", "1h0m0s" (above one minute, seconds are whole).
func FormatTime(ms float64, unit string) string {
	if math.IsNaN(ms) || math.IsInf(ms, 0) {
		return strconv.FormatFloat(ms, 'f', -1, 64)
	}
	if u, ok := timeUnits[unit]; ok {
		return toFixed(ms/u.ms, 2) + u.suffix
	}
	if ms < 0 {
		return "-" + autoTime(-ms)
	}
	return autoTime(ms)
}

// autoTime formats a non-negative duration in milliseconds with the unit its
// magnitude calls for.
func autoTime(ms float64) string {
	switch {
	case ms == 0:
		return "0s"
	case ms < 0.001:
		return strconv.FormatFloat(math.Trunc(ms*1e6), 'f', -1, 64) + "ns"
	case ms < 1:
		return truncated(ms*1000, 2) + "µs"
	case ms < 1000:
		return truncated(ms, 2) + "ms"
	}
	decimals := 2
	if ms > 60000 {
		decimals = 0
	}
	out := truncated(math.Mod(ms, 60000)/1000, decimals) + "s"
	minutes := math.Trunc(ms / 60000)
	if minutes < 1 {
		return out
	}
	out = strconv.FormatFloat(math.Mod(minutes, 60), 'f', -1, 64) + "m" + out
	hours := math.Trunc(minutes / 60)
	if hours < 1 {
		return out
	}
	return strconv.FormatFloat(hours, 'f', -1, 64) + "h" + out
}

// byteUnits are the decimal (SI) units FormatBytes uses, 1 kB = 1000 B.
var byteUnits = []string{"B", "kB", "MB", "GB", "TB", "PB", "EB"}

// FormatBytes formats a byte count with decimal units: below 10 bytes as a
// plain number ("5 B"), otherwise rounded to one decimal below 10 units and
// to a whole number above ("718 B", "4.9 kB", "519 kB", "1.3 MB").
func FormatBytes(b float64) string {
	if math.Abs(b) < 10 || math.IsNaN(b) || math.IsInf(b, 0) {
		return FormatNumber(b) + " B"
	}
	e := int(math.Floor(math.Log(math.Abs(b)) / math.Log(1000)))
	e = min(max(e, 0), len(byteUnits)-1)
	v := math.Floor(b/math.Pow(1000, float64(e))*10+0.5) / 10
	decimals := 0
	if v < 10 {
		decimals = 1
	}
	return toFixed(v, decimals) + " " + byteUnits[e]
}

// FormatNumber formats v rounded to at most 6 decimals, without trailing
// zeros: 3.5, 10, 13.122179.
func FormatNumber(v float64) string {
	return trimZeros(toFixed(v, 6))
}

// FormatPercent formats a ratio r (0 to 1) as a percentage truncated to 2
// decimals: 2/3 is "66.66%".
func FormatPercent(r float64) string {
	return toFixed(math.Trunc(r*100*100)/100, 2) + "%"
}

// truncated formats v truncated (towards zero) to at most decimals decimals,
// without trailing zeros.
func truncated(v float64, decimals int) string {
	m := math.Pow(10, float64(decimals))
	return trimZeros(toFixed(math.Trunc(v*m)/m, decimals))
}

// trimZeros removes trailing zeros after a decimal point, and the point
// itself when nothing follows it.
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// toFixed formats v with exactly decimals decimals, rounding the exact binary
// value half away from zero, as JavaScript's Number.prototype.toFixed does
// (Go's strconv rounds exact ties to even: 0.125 → "0.12", JS gives "0.13").
func toFixed(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	// 1100 decimals hold every float64 exactly (the smallest has 1074).
	exact := new(big.Float).SetFloat64(v).Text('f', 1100)
	whole, frac, _ := strings.Cut(exact, ".")
	digits := []byte(whole + frac[:decimals])
	if frac[decimals] >= '5' {
		digits = increment(digits)
	}
	out := string(digits)
	if decimals > 0 {
		cut := len(out) - decimals
		out = out[:cut] + "." + out[cut:]
	}
	if strings.Trim(out, "0.") == "" {
		sign = ""
	}
	return sign + out
}

// increment adds one to the decimal number written in digits.
func increment(digits []byte) []byte {
	for i := len(digits) - 1; i >= 0; i-- {
		if digits[i] < '9' {
			digits[i]++
			return digits
		}
		digits[i] = '0'
	}
	return append([]byte{'1'}, digits...)
}
