package output

import (
	"math"
	"strconv"

	"github.com/usefullatency/usefullatency/metrics"
)

// fieldKind is the InfluxDB type a tag becomes when it is written as a
// field (K6_INFLUXDB_TAGS_AS_FIELDS "name:kind").
type fieldKind uint8

// The field kinds; a tag without a kind is a string field.
const (
	fieldString fieldKind = iota
	fieldInt
	fieldFloat
	fieldBool
)

// lineEncoder writes samples as InfluxDB 1.x line protocol, one line a
// point:
//
//	measurement[,tag=value...] value=<float>[,field=<typed>...] <timestamp>
//
// The measurement is the metric name; tags are the sample's tags sorted by
// key, less those listed in asFields, which become typed fields together
// with the sample's metadata. A tag with an empty value is left out (line
// protocol has no empty tag value). The timestamp is the sample's time in
// units of divisor nanoseconds (1 for precision ns).
type lineEncoder struct {
	asFields map[string]fieldKind
	divisor  int64
	keys     []string
}

// appendPoint appends the line of one sample and reports whether it wrote
// one: a NaN or infinite value has no line protocol form and is skipped.
func (e *lineEncoder) appendPoint(b []byte, s *metrics.Sample) ([]byte, bool) {
	if math.IsNaN(s.Value) || math.IsInf(s.Value, 0) {
		return b, false
	}
	b = appendEscaped(b, s.Metric.Name, measurementSpecial)
	e.keys = sortedKeys(e.keys[:0], s.Tags)
	for _, k := range e.keys {
		v := s.Tags[k]
		if _, field := e.asFields[k]; field || v == "" || k == "" || k == "time" {
			continue
		}
		b = append(b, ',')
		b = appendEscaped(b, k, keySpecial)
		b = append(b, '=')
		b = appendEscaped(b, v, keySpecial)
	}
	b = append(b, " value="...)
	b = strconv.AppendFloat(b, s.Value, 'g', -1, 64)
	for _, k := range e.keys {
		if kind, field := e.asFields[k]; field {
			b = appendField(b, k, s.Tags[k], kind)
		}
	}
	e.keys = sortedKeys(e.keys[:0], s.Metadata)
	for _, k := range e.keys {
		if _, dup := s.Tags[k]; dup && e.isField(k) {
			continue // the tag of that name is the field
		}
		b = appendField(b, k, s.Metadata[k], e.asFields[k])
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, s.Time.UnixNano()/e.divisor, 10)
	return append(b, '\n'), true
}

// isField reports whether the tag k is written as a field.
func (e *lineEncoder) isField(k string) bool {
	_, ok := e.asFields[k]
	return ok
}

// sortedKeys appends the keys of pairs to dst, sorted (insertion sort:
// a sample has a handful of tags).
func sortedKeys(dst []string, pairs metrics.Tags) []string {
	for k := range pairs {
		i := len(dst)
		dst = append(dst, k)
		for ; i > 0 && dst[i-1] > k; i-- {
			dst[i] = dst[i-1]
		}
		dst[i] = k
	}
	return dst
}

// appendField appends ",key=value" with the value in the form of kind. A
// value that does not parse as its kind (vu:int with "x") is written as a
// string field.
func appendField(b []byte, key, value string, kind fieldKind) []byte {
	if key == "" || key == "time" || key == "value" {
		return b
	}
	b = append(b, ',')
	b = appendEscaped(b, key, keySpecial)
	b = append(b, '=')
	switch kind {
	case fieldInt:
		if n, err := strconv.ParseInt(value, 10, 64); err == nil {
			b = strconv.AppendInt(b, n, 10)
			return append(b, 'i')
		}
	case fieldFloat:
		if f, err := strconv.ParseFloat(value, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return strconv.AppendFloat(b, f, 'g', -1, 64)
		}
	case fieldBool:
		if t, err := strconv.ParseBool(value); err == nil {
			return strconv.AppendBool(b, t)
		}
	}
	return appendStringField(b, value)
}

// The characters escaped with a backslash: in a measurement a comma and a
// space; in a tag key, tag value or field key also '='. Each table also
// marks the bytes that need a look: '\\', '\n' and '\r'.
var (
	measurementSpecial = escapeTable(", ")
	keySpecial         = escapeTable(",= ")
)

// escapeTable marks the bytes of special and the backslash and line breaks.
func escapeTable(special string) *[256]bool {
	var t [256]bool
	for _, c := range []byte(special + "\\\n\r") {
		t[c] = true
	}
	return &t
}

// appendEscaped appends s with a backslash before each special character.
// Line protocol 1.x has no form for a line break in a name, nor for a
// backslash that ends the name or stands before a special character (it
// would escape what follows): such a backslash is written as '/', a line
// break as an escaped space. Names with nothing to escape, nearly all, are
// copied at once.
func appendEscaped(b []byte, s string, special *[256]bool) []byte {
	i := 0
	for i < len(s) && !special[s[i]] {
		i++
	}
	if i == len(s) {
		return append(b, s...)
	}
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n' || c == '\r':
			b = append(b, '\\', ' ')
		case c == '\\':
			if i+1 == len(s) || (special[s[i+1]] && s[i+1] != '\\') {
				c = '/'
			}
			b = append(b, c)
		case special[c]:
			b = append(b, '\\', c)
		default:
			b = append(b, c)
		}
	}
	return b
}

// appendStringField appends a quoted string field value: '"' and '\'
// escaped with a backslash.
func appendStringField(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}
