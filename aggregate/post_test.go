package aggregate

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/result"
)

// bomb is a 102 KB post that decompresses to about 100 MB: a header that
// declares a trend of count values, then zero bytes, each a value.
func bomb(t *testing.T, count int64) []byte {
	t.Helper()
	f := shareFile(0, 1, 1, 1, "")
	f.Format, f.Version = result.Format, result.Version
	f.Metrics[1].Sink.Count = count
	header, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	gz.Write(append(header, '\n'))
	zeros := make([]byte, 1<<20)
	for range 100 {
		gz.Write(zeros)
	}
	gz.Close()
	return b.Bytes()
}

// TestAggregatorPostLimits: a post over MaxPostBytes is refused, whether it
// says its length or not, and so is one that decompresses to far more than
// its size; refusing the 102 KB bomb that took an aggregator past 3.9 GB
// allocates a few MiB. The aggregator keeps nothing of them.
func TestAggregatorPostLimits(t *testing.T) {
	// Not parallel: the allocations of the process are measured.
	a := New(Config{Interval: time.Hour, Token: testToken, MaxPostBytes: 256 << 10})
	url := serve(t, a)
	big := bytes.Repeat([]byte("x"), 300<<10)
	for _, chunked := range []bool{false, true} {
		var body io.Reader = bytes.NewReader(big)
		if chunked {
			body = io.MultiReader(body) // no length known: chunked
		}
		req, _ := http.NewRequest(http.MethodPost, url+Path, body)
		req.Header.Set("Authorization", "Bearer "+testToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(msg), "at most 262144 bytes") {
			t.Errorf("chunked %v: %s %s", chunked, resp.Status, msg)
		}
	}

	// 2^40 values declared; 100 million, all there; as many as the limit
	// takes (a value is at least a byte), the stream going on beyond.
	for _, tc := range []struct {
		count int64
		most  uint64
	}{
		{1 << 40, 32 << 20},
		{100 << 20, 32 << 20},
		{decodedFloor - 1024, result.MemoryFactor*decodedFloor + result.MemoryOverhead},
	} {
		b := bomb(t, tc.count)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		code := runnerN(0).postTo(t, url, b)
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("a %d KB post declaring %d values, decompressing to 100 MB: %d, %.1f MiB allocated", len(b)>>10, tc.count, code, float64(alloc)/(1<<20))
		if code != http.StatusRequestEntityTooLarge && code != http.StatusBadRequest {
			t.Errorf("the bomb declaring %d values: %d, want 413 or 400", tc.count, code)
		}
		if alloc > tc.most {
			t.Errorf("refusing the bomb declaring %d values allocated %d MiB, want under %d MiB", tc.count, alloc>>20, tc.most>>20)
		}
	}
	if len(a.runners) != 0 {
		t.Errorf("the aggregator kept %d runners", len(a.runners))
	}
}
