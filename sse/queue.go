package sse

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// QueueSource says where the server reports how long it queued the request.
// The zero value reads the Server-Timing header's "queue" metric (dur in ms),
// and, when the header does not carry it, the field "queue_ms" of the first
// event that has it among the events before the first visible text and the
// state events.
type QueueSource struct {
	// Header is the response header to read; defaults to "Server-Timing".
	// "-" disables reading a header. A header other than Server-Timing must
	// hold a number of milliseconds (an "ms" suffix is allowed).
	Header string
	// Metric is the Server-Timing metric whose dur is the queue time;
	// defaults to "queue".
	Metric string
	// Field is the dot path of the queue time, in milliseconds, in an
	// event's JSON data, also tried inside its business_state; defaults to
	// "queue_ms". "-" disables reading events.
	Field string
}

// ParseQueueSource builds a QueueSource from a script value: null or
// undefined (defaults), false or "none" (disabled), a string
// "server-timing:<metric>", "header:<name>" or "field:<path>" (a bare string
// is a field path), or an object {header, metric, field}. An object disables
// the sources it does not name.
func ParseQueueSource(spec any) (QueueSource, error) {
	switch s := spec.(type) {
	case nil:
		return QueueSource{}, nil
	case bool:
		if !s {
			return QueueSource{Header: "-", Field: "-"}, nil
		}
		return QueueSource{}, nil
	case string:
		return parseQueueString(s)
	case map[string]any:
		return parseQueueObject(s)
	}
	return QueueSource{}, fmt.Errorf("%w: queue must be a string or an object {header, metric, field}, got %s", ErrInvalidRequest, typeName(spec))
}

// parseQueueString parses the string forms of ParseQueueSource.
func parseQueueString(s string) (QueueSource, error) {
	kind, arg, found := strings.Cut(s, ":")
	switch {
	case s == "none":
		return QueueSource{Header: "-", Field: "-"}, nil
	case !found:
		return QueueSource{Header: "-", Field: s}, validQueuePath(s)
	case strings.EqualFold(kind, "server-timing") && arg != "":
		return QueueSource{Header: "Server-Timing", Metric: arg, Field: "-"}, nil
	case kind == "header" && arg != "":
		return QueueSource{Header: arg, Field: "-"}, nil
	case kind == "field" && arg != "":
		return QueueSource{Header: "-", Field: arg}, validQueuePath(arg)
	}
	return QueueSource{}, fmt.Errorf("%w: queue %q: want server-timing:<metric>, header:<name> or field:<path>", ErrInvalidRequest, s)
}

// parseQueueObject parses {header, metric, field}.
func parseQueueObject(m map[string]any) (QueueSource, error) {
	q := QueueSource{Header: "-", Field: "-"}
	for k, v := range m {
		s, ok := v.(string)
		if !ok || s == "" {
			return q, fmt.Errorf("%w: queue.%s must be a non-empty string", ErrInvalidRequest, k)
		}
		switch k {
		case "header":
			q.Header = s
		case "metric":
			q.Metric = s
			if q.Header == "-" {
				q.Header = "Server-Timing"
			}
		case "field":
			q.Field = s
		default:
			return q, fmt.Errorf("%w: queue has unknown key %q; want header, metric or field", ErrInvalidRequest, k)
		}
	}
	return q, validQueuePath(q.Field)
}

// validQueuePath checks a field path.
func validQueuePath(p string) error {
	if p == "-" || validPath(p) {
		return nil
	}
	return fmt.Errorf("%w: queue field %q is not a dot path", ErrInvalidRequest, p)
}

// header returns the header name to read, "" when disabled.
func (q QueueSource) header() string {
	switch q.Header {
	case "-":
		return ""
	case "":
		return "Server-Timing"
	}
	return q.Header
}

// metric returns the Server-Timing metric name.
func (q QueueSource) metric() string {
	if q.Metric == "" {
		return "queue"
	}
	return q.Metric
}

// field returns the field path to read, nil when disabled.
func (q QueueSource) field() []string {
	switch q.Field {
	case "-":
		return nil
	case "":
		return []string{"queue_ms"}
	}
	return splitPath(q.Field)
}

// fromHeader returns the queue time in ms reported by the response headers.
func (q QueueSource) fromHeader(h http.Header) (float64, bool) {
	name := q.header()
	if name == "" {
		return 0, false
	}
	values := h.Values(name)
	if strings.EqualFold(name, "Server-Timing") {
		return serverTimingDur(values, q.metric())
	}
	for _, v := range values {
		v = strings.TrimSuffix(strings.TrimSpace(v), "ms")
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			return f, true
		}
	}
	return 0, false
}

// serverTimingDur finds metric's dur in Server-Timing header values, e.g.
// `queue;dur=12.5, db;dur=53;desc="lookup"`.
func serverTimingDur(values []string, metric string) (float64, bool) {
	for _, v := range values {
		for _, entry := range strings.Split(v, ",") {
			params := strings.Split(entry, ";")
			if !strings.EqualFold(strings.TrimSpace(params[0]), metric) {
				continue
			}
			for _, p := range params[1:] {
				k, val, _ := strings.Cut(strings.TrimSpace(p), "=")
				if strings.EqualFold(strings.TrimSpace(k), "dur") {
					f, err := strconv.ParseFloat(strings.Trim(strings.TrimSpace(val), `"`), 64)
					return f, err == nil
				}
			}
		}
	}
	return 0, false
}

// fromEvent returns the queue time in ms carried by an event's data at path,
// or inside its business_state delta.
func fromEvent(ev *Event, path []string) (float64, bool) {
	if raw, ok := lookupPath(ev.Data, path); ok {
		if f, ok := jsonFloat(raw); ok {
			return f, true
		}
	}
	if ev.State != nil {
		v, ok := lookupState(ev.State, path)
		if f, isNum := number(v); ok && isNum {
			return f, true
		}
	}
	return 0, false
}
