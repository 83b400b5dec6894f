package output

import (
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/options"
)

func init() { register("csv", newCSV) }

// csvTagColumns are k6's system tags, each a CSV column in this order;
// other tags go to extra_tags as k=v pairs joined by '&'.
var csvTagColumns = []string{
	"check", "error", "error_code", "expected_response", "group", "method", "name", "proto",
	"scenario", "service", "status", "subproto", "tls_version", "url",
}

// CSV writes k6's CSV: metric_name,timestamp,metric_value, one column per
// system tag, extra_tags, metadata. Settings as in k6, from the argument
// (`csv=file.csv`, or `csv=fileName=f.csv,saveInterval=2s,timeFormat=rfc3339`)
// or K6_CSV_FILENAME, K6_CSV_SAVE_INTERVAL, K6_CSV_TIME_FORMAT: fileName
// (default file.csv; .gz compresses), saveInterval (default 1s) and
// timeFormat (unix, unix_milli, unix_micro, unix_nano, rfc3339,
// rfc3339_nano; default unix).
type CSV struct {
	cfg csvConfig
	out *sink
	w   *csv.Writer
	buf *buffer
	row []string
}

type csvConfig struct {
	fileName   string
	interval   time.Duration
	timeFormat string
}

var _ Output = (*CSV)(nil)

func newCSV(p Params) (Output, error) {
	cfg, err := csvSettings(p)
	if err != nil {
		return nil, err
	}
	out, err := openSink(cfg.fileName, p.Stdout)
	if err != nil {
		return nil, err
	}
	c := &CSV{cfg: cfg, out: out, w: csv.NewWriter(out.w)}
	c.buf = newBuffer(cfg.interval, c.write)
	return c, nil
}

// csvSettings reads the defaults, the environment, then the argument.
func csvSettings(p Params) (csvConfig, error) {
	cfg := csvConfig{fileName: "file.csv", interval: time.Second, timeFormat: "unix"}
	set := map[string]string{
		"fileName": p.Env["K6_CSV_FILENAME"], "saveInterval": p.Env["K6_CSV_SAVE_INTERVAL"],
		"timeFormat": p.Env["K6_CSV_TIME_FORMAT"],
	}
	if p.Arg != "" && !strings.Contains(p.Arg, "=") {
		set["fileName"] = p.Arg
	} else if p.Arg != "" {
		for _, kv := range strings.Split(p.Arg, ",") {
			k, v, _ := strings.Cut(kv, "=")
			if _, ok := set[k]; !ok {
				return cfg, fmt.Errorf("unknown csv option %q (want fileName, saveInterval, timeFormat)", k)
			}
			set[k] = v
		}
	}
	return cfg, cfg.apply(set)
}

func (cfg *csvConfig) apply(set map[string]string) error {
	if v := set["fileName"]; v != "" {
		cfg.fileName = v
	}
	if v := set["saveInterval"]; v != "" {
		d, err := options.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("saveInterval %q: want a positive duration", v)
		}
		cfg.interval = d
	}
	if v := set["timeFormat"]; v != "" {
		if _, ok := csvTimeFormats[v]; !ok {
			return fmt.Errorf("timeFormat %q: want unix, unix_milli, unix_micro, unix_nano, rfc3339 or rfc3339_nano", v)
		}
		cfg.timeFormat = v
	}
	return nil
}

// csvTimeFormats render a sample's time.
var csvTimeFormats = map[string]func(time.Time) string{
	"unix":         func(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) },
	"unix_milli":   func(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) },
	"unix_micro":   func(t time.Time) string { return strconv.FormatInt(t.UnixMicro(), 10) },
	"unix_nano":    func(t time.Time) string { return strconv.FormatInt(t.UnixNano(), 10) },
	"rfc3339":      func(t time.Time) string { return t.Format(time.RFC3339) },
	"rfc3339_nano": func(t time.Time) string { return t.Format(time.RFC3339Nano) },
}

// Description names the output for the banner.
func (c *CSV) Description() string { return "csv (" + c.cfg.fileName + ")" }

// Start writes the header and starts the periodic writes.
func (c *CSV) Start() error {
	header := append([]string{"metric_name", "timestamp", "metric_value"}, csvTagColumns...)
	if err := c.w.Write(append(header, "extra_tags", "metadata")); err != nil {
		return err
	}
	c.buf.start()
	return nil
}

// AddSamples buffers samples.
func (c *CSV) AddSamples(s []metrics.Sample) { c.buf.add(s) }

// Stop writes the rest and closes the file.
func (c *CSV) Stop() error {
	err := c.buf.stop()
	if e := c.out.Close(); err == nil {
		err = e
	}
	return err
}

// write writes one row per sample.
func (c *CSV) write(batch []metrics.Sample) error {
	format := csvTimeFormats[c.cfg.timeFormat]
	for i := range batch {
		s := &batch[i]
		c.row = append(c.row[:0], s.Metric.Name, format(s.Time), strconv.FormatFloat(s.Value, 'f', 6, 64))
		for _, col := range csvTagColumns {
			c.row = append(c.row, s.Tags[col])
		}
		c.row = append(c.row, extraTags(s.Tags), joinPairs(s.Metadata))
		if err := c.w.Write(c.row); err != nil {
			return err
		}
	}
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		return err
	}
	return c.out.flush()
}

// extraTags joins the tags that have no column as k=v&k2=v2, sorted.
func extraTags(tags metrics.Tags) string {
	extra := make(metrics.Tags, len(tags))
	for k, v := range tags {
		if !isColumn(k) {
			extra[k] = v
		}
	}
	return joinPairs(extra)
}

// joinPairs joins all of pairs as k=v&k2=v2, sorted: the metadata column.
func joinPairs(pairs metrics.Tags) string {
	parts := make([]string, 0, len(pairs))
	for _, k := range metrics.SortedNames(pairs) {
		parts = append(parts, k+"="+pairs[k])
	}
	return strings.Join(parts, "&")
}

func isColumn(tag string) bool {
	for _, c := range csvTagColumns {
		if c == tag {
			return true
		}
	}
	return false
}
