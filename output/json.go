package output

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
)

func init() { register("json", newJSON) }

// JSON writes k6's NDJSON: a Metric line the first time a metric appears,
// then one Point line per sample. `-o json` and `-o json=-` write to
// stdout, `-o json=file.json` to a file, gzip-compressed when the name ends
// in .gz. Lines are flushed every 200 ms and at the end.
type JSON struct {
	name string
	out  *sink
	buf  *buffer
	seen map[*metrics.Metric]bool
	line []byte
}

var _ Output = (*JSON)(nil)

func newJSON(p Params) (Output, error) {
	out, err := openSink(p.Arg, p.Stdout)
	if err != nil {
		return nil, err
	}
	j := &JSON{name: p.Arg, out: out, seen: map[*metrics.Metric]bool{}}
	j.buf = newBuffer(200*time.Millisecond, j.write)
	return j, nil
}

// Description names the output for the banner.
func (j *JSON) Description() string {
	if j.name == "" || j.name == "-" {
		return "json (stdout)"
	}
	return "json (" + j.name + ")"
}

// Start starts the periodic flush.
func (j *JSON) Start() error { j.buf.start(); return nil }

// AddSamples buffers samples.
func (j *JSON) AddSamples(s []metrics.Sample) { j.buf.add(s) }

// Stop writes the rest and closes the file.
func (j *JSON) Stop() error {
	err := j.buf.stop()
	if e := j.out.Close(); err == nil {
		err = e
	}
	return err
}

// write encodes a batch.
func (j *JSON) write(batch []metrics.Sample) error {
	for i := range batch {
		s := &batch[i]
		if !j.seen[s.Metric] {
			j.seen[s.Metric] = true
			if err := j.writeMetric(s.Metric); err != nil {
				return err
			}
		}
		j.line = appendPoint(j.line[:0], s)
		if _, err := j.out.w.Write(j.line); err != nil {
			return err
		}
	}
	return j.out.flush()
}

// jsonMetric is the data of a Metric line.
type jsonMetric struct {
	Name       string          `json:"name"`
	Type       string          `json:"type"`
	Contains   string          `json:"contains"`
	Thresholds []string        `json:"thresholds"`
	Submetrics []jsonSubmetric `json:"submetrics"`
}

type jsonSubmetric struct {
	Name   string            `json:"name"`
	Suffix string            `json:"suffix"`
	Tags   map[string]string `json:"tags"`
}

func (j *JSON) writeMetric(m *metrics.Metric) error {
	data := jsonMetric{Name: m.Name, Type: m.Type.String(), Contains: m.Contains.String(), Thresholds: []string{}}
	for _, t := range m.Thresholds {
		data.Thresholds = append(data.Thresholds, t.Source)
	}
	for _, sub := range m.Submetrics {
		data.Submetrics = append(data.Submetrics, jsonSubmetric{
			Name: sub.Metric.Name, Suffix: sub.Metric.Name[len(m.Name)+1 : len(sub.Metric.Name)-1], Tags: sub.Selector,
		})
	}
	enc := json.NewEncoder(j.out.w)
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Type   string     `json:"type"`
		Data   jsonMetric `json:"data"`
		Metric string     `json:"metric"`
	}{"Metric", data, m.Name})
}

// appendPoint encodes one Point line by hand: it is the hot path.
func appendPoint(b []byte, s *metrics.Sample) []byte {
	b = append(b, `{"type":"Point","data":{"time":"`...)
	b = s.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","value":`...)
	b = strconv.AppendFloat(b, s.Value, 'f', -1, 64)
	b = append(b, `,"tags":`...)
	b = appendJSONPairs(b, s.Tags)
	if len(s.Metadata) > 0 {
		b = append(b, `,"metadata":`...)
		b = appendJSONPairs(b, s.Metadata)
	}
	b = append(b, `},"metric":`...)
	b = appendJSONString(b, s.Metric.Name)
	return append(b, "}\n"...)
}

// appendJSONPairs appends pairs as a JSON object with sorted keys.
func appendJSONPairs(b []byte, pairs metrics.Tags) []byte {
	b = append(b, '{')
	for i, k := range metrics.SortedNames(pairs) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSONString(b, pairs[k])
	}
	return append(b, '}')
}

// appendJSONString appends s as a JSON string: plain printable ASCII as is,
// anything else through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
