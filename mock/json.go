package mock

import (
	"strconv"

	"github.com/usefullatency/usefullatency/internal/jsonstr"
)

// appendString appends s as a JSON string (<, > and & as they are).
func appendString(b []byte, s string) []byte { return jsonstr.Append(b, s, false) }

// appendMS appends milliseconds with microsecond precision, e.g. 12.345.
func appendMS(b []byte, ms float64) []byte {
	return strconv.AppendFloat(b, ms, 'f', 3, 64)
}

// formatMS formats milliseconds in the shortest exact form, e.g. 2000.
func formatMS(ms float64) string {
	return strconv.FormatFloat(ms, 'f', -1, 64)
}
