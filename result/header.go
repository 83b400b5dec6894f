package result

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
)

// maxHeader bounds the JSON header a reader accepts: 64 MiB, some 300,000
// metrics, submetrics or checks.
const maxHeader = 64 << 20

// Bounds of what decoding a header's JSON allocates, counted before it is
// decoded (see headerShape): at most headerCostPerByte bytes of slice
// elements and map entries per header byte, above headerCostFloor. Honest
// headers cost 2 to 5 bytes per byte (a metric is some 60 bytes of JSON and
// 184 bytes of Go), 20 at worst (submetrics with short selectors and empty
// sinks, 32 bytes of JSON, 128 of Go five times over as their slice grows);
// `[{},{},…]` would cost 61 per byte and more.
const (
	headerCostPerByte = 32
	headerCostFloor   = 1 << 20
)

// readHeader reads and checks the JSON header line.
func readHeader(br *bufio.Reader) (*File, error) {
	line, err := readLine(br)
	if err != nil {
		return nil, err
	}
	var id struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if !json.Valid(line) || json.Unmarshal(line, &id) != nil || id.Format != Format {
		// A damaged stream garbles the header too: gzip tells which it is.
		if _, err := io.Copy(io.Discard, br); err != nil {
			return nil, corrupt("header", err)
		}
		return nil, fmt.Errorf("%w (no %q header)", ErrNotResult, Format)
	}
	if id.Version > Version {
		return nil, fmt.Errorf("%w: the file has version %d, this build reads up to %d; use a newer usefullatency", ErrNewerVersion, id.Version, Version)
	}
	if id.Version < 1 {
		return nil, corrupt(fmt.Sprintf("invalid format version %d", id.Version), nil)
	}
	shape := headerShape(line)
	if limit := headerCostPerByte*int64(len(line)) + headerCostFloor; shape.cost > limit {
		return nil, fmt.Errorf("%w: the header's %s of JSON would take %s to decode, more than %d times its size (%d elements)",
			ErrTooLarge, sizeText(int64(len(line))), sizeText(shape.cost), headerCostPerByte, shape.elements)
	}
	f := shape.presized()
	if err := json.Unmarshal(line, f); err != nil {
		return nil, corrupt("header", err)
	}
	return f, nil
}

// readLine reads the header line, at most maxHeader bytes, in chunks
// joined once: it allocates twice the line, not the garbage of a doubling
// buffer.
func readLine(br *bufio.Reader) ([]byte, error) {
	var chunks [][]byte
	n := 0
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		switch {
		case n > maxHeader:
			return nil, fmt.Errorf("%w: header longer than %s", ErrTooLarge, sizeText(maxHeader))
		case err == nil:
			return bytes.Join(append(chunks, chunk), nil), nil
		case errors.Is(err, bufio.ErrBufferFull):
			chunks = append(chunks, bytes.Clone(chunk))
			continue
		case n == 0 && errors.Is(err, io.EOF):
			return nil, fmt.Errorf("%w (empty)", ErrNotResult)
		}
		return nil, corrupt("header", err)
	}
}

// A slot is a slice or map of the header that decoding fills: its kind
// says which, and where it may hold slots of its own.
type slot uint8

const (
	inOther       slot = iota // nothing decoded allocates here (also options, setup_data, unknown keys)
	inRoot                    // the header object
	inMetricList              // metrics
	inMetricObj               // one of metrics
	inSubList                 // metrics[].submetrics
	inGroupList               // groups
	inGroupObj                // one of groups
	inCheckList               // groups[].checks
	inSegList                 // segments
	inStatList                // summary_trend_stats
	inThreshMap               // thresholds
	inThreshList              // thresholds[key]
	inBreakdown               // breakdown
	inKeyList                 // breakdown.keys
	inBmetricList             // breakdown.metrics
	inBucketList              // breakdown.buckets
	inBucketObj               // one of breakdown.buckets
	inBsinkList               // breakdown.buckets[].sinks
)

// slotBytes is what one element of a slot costs in Go; for the map, one
// entry with its share of the table's growth.
var slotBytes = [...]int64{
	inMetricList: size[Metric](), inSubList: size[Submetric](),
	inGroupList: size[Group](), inCheckList: size[Check](),
	inSegList: 16, inStatList: 16, inKeyList: 16,
	inThreshMap: 256, inThreshList: size[Threshold](),
	inBmetricList: size[BreakdownMetric](), inBucketList: size[Bucket](),
	inBsinkList: size[BucketSink](),
}

// size returns the bytes a T takes.
func size[T any]() int64 { return int64(reflect.TypeFor[T]().Size()) }

// child returns the kind of the container found under key (nil for an
// element of an array) of a container of kind parent.
func child(parent slot, key []byte) slot {
	is := func(s string) bool { return bytes.EqualFold(key, []byte(s)) } // as encoding/json matches
	switch parent {
	case inRoot:
		switch {
		case is("metrics"):
			return inMetricList
		case is("groups"):
			return inGroupList
		case is("segments"):
			return inSegList
		case is("summary_trend_stats"):
			return inStatList
		case is("thresholds"):
			return inThreshMap
		case is("breakdown"):
			return inBreakdown
		}
	case inMetricList:
		return inMetricObj
	case inMetricObj:
		if is("submetrics") {
			return inSubList
		}
	case inGroupList:
		return inGroupObj
	case inGroupObj:
		if is("checks") {
			return inCheckList
		}
	case inThreshMap:
		return inThreshList
	case inBreakdown:
		switch {
		case is("keys"):
			return inKeyList
		case is("metrics"):
			return inBmetricList
		case is("buckets"):
			return inBucketList
		}
	case inBucketList:
		return inBucketObj
	case inBucketObj:
		if is("sinks") {
			return inBsinkList
		}
	}
	return inOther
}

// shape is what headerShape counted.
type shape struct {
	// cost bounds the bytes of slice elements and map entries decoding
	// allocates, growth included; elements counts them.
	cost, elements int64
	// top counts the elements of the top-level slices, which are
	// allocated at their length before decoding (no growth).
	top [inBsinkList + 1]int64
}

// presized returns a File whose top-level slices have the capacity the
// header fills.
func (s shape) presized() *File {
	f := &File{}
	if n := s.top[inMetricList]; n > 0 {
		f.Metrics = make([]Metric, 0, n)
	}
	if n := s.top[inGroupList]; n > 0 {
		f.Groups = make([]Group, 0, n)
	}
	if n := s.top[inSegList]; n > 0 {
		f.Segments = make([]string, 0, n)
	}
	if n := s.top[inStatList]; n > 0 {
		f.SummaryTrendStats = make([]string, 0, n)
	}
	return f
}

// frame is an open container while scanning.
type frame struct {
	kind  slot
	array bool
	// wantKey is true in an object where a key comes next.
	wantKey bool
	n       int64
}

// headerShape counts, in valid JSON, the elements of every slice and the
// entries of every map the header decodes into, without decoding it. A
// nested slice grows while it is decoded (Go's append: twice the size,
// then 1.25 times), so its elements count growthFactor times; top-level
// slices are presized.
func headerShape(line []byte) shape {
	var s shape
	var stack []frame
	var key []byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case ' ', '\t', '\r', '\n', ':':
			continue
		case ',':
			if top := &stack[len(stack)-1]; !top.array {
				top.wantKey = true
			}
			continue
		case '}', ']':
			s.closed(stack[len(stack)-1], len(stack))
			stack = stack[:len(stack)-1]
			continue
		}
		kind := inRoot
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.wantKey {
				end := stringEnd(line, i)
				key, top.wantKey = jsonKey(line[i:end+1]), false
				i = end
				continue
			}
			top.n++
			if top.array {
				key = nil
			}
			kind = child(top.kind, key)
		}
		switch c {
		case '{', '[':
			stack = append(stack, frame{kind: kind, array: c == '[', wantKey: c == '{'})
		case '"':
			i = stringEnd(line, i)
		default: // a number, true, false or null
			for i+1 < len(line) && !delimiter(line[i+1]) {
				i++
			}
		}
	}
	return s
}

// closed adds the cost of a container that ends, at depth (1 for the
// header object).
func (s *shape) closed(f frame, depth int) {
	per := slotBytes[f.kind]
	if per == 0 || f.n == 0 {
		return
	}
	s.elements += f.n
	switch {
	case !f.array: // a map: its entries, table growth included
		s.cost += f.n * per
	case depth == 2:
		s.top[f.kind] += f.n
		s.cost += f.n * per
	default:
		s.cost += f.n * per * growthFactor
	}
}

// delimiter is true of the bytes that end a number or literal.
func delimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ']', '}':
		return true
	}
	return false
}

// growthFactor bounds the bytes a slice of n elements allocates while
// append grows it, in elements: 2n + 1.25n + 1.25²n + … < 6n.
const growthFactor = 6

// stringEnd returns the index of the quote that ends the string starting
// at line[i] (a valid JSON string).
func stringEnd(line []byte, i int) int {
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(line) - 1
}

// jsonKey returns a quoted key's text: its bytes, unescaped only when it
// holds an escape (an honest header's field names never do).
func jsonKey(quoted []byte) []byte {
	if !bytes.ContainsRune(quoted, '\\') {
		return quoted[1 : len(quoted)-1]
	}
	var k string
	if json.Unmarshal(quoted, &k) != nil {
		return nil
	}
	return []byte(k)
}
