package aggregate

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/result"
)

// shareFile is runner i of n's result: count iterations and, when values
// > 0, that many request durations in a Trend; gate is a threshold on the
// iterations counter with abortOnFail ("" for none).
func shareFile(i, n int, count, values int, gate string) *result.File {
	seq := []string{"0"}
	for k := 1; k < n; k++ {
		seq = append(seq, fmt.Sprintf("%d/%d", k, n))
	}
	seq = append(seq, "1")
	start := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	f := &result.File{
		TestID: "test", Script: "test.js", Segments: []string{seq[i] + ":" + seq[i+1]},
		Sequence: strings.Join(seq, ","), Start: start, End: start.Add(time.Minute), Duration: time.Minute,
		Metrics: []result.Metric{{Name: "iterations", Type: "counter", Contains: "default",
			Sink: result.Sink{Sum: float64(count), Count: int64(count)}}},
		Groups: []result.Group{{Path: ""}},
	}
	if values > 0 {
		r := rand.New(rand.NewPCG(uint64(i), 1))
		vs := make([]float64, values)
		var sum float64
		for k := range vs {
			vs[k] = 50 + r.ExpFloat64()*200
			sum += vs[k]
		}
		f.Metrics = append(f.Metrics, result.Metric{Name: "req_duration", Type: "trend", Contains: "time",
			Sink: result.Sink{Count: int64(values), Sum: sum, Values: vs}})
		f.Thresholds = map[string][]result.Threshold{"req_duration": {{Source: "p(95)<2000"}}}
	}
	if gate != "" {
		if f.Thresholds == nil {
			f.Thresholds = map[string][]result.Threshold{}
		}
		f.Thresholds["iterations"] = []result.Threshold{{Source: gate, AbortOnFail: true}}
	}
	return f
}

// encoded is f as a post's body.
func encoded(f *result.File) []byte {
	var b bytes.Buffer
	if err := result.Write(&b, f); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// serve serves a on a loopback port, with the server's limits, until the
// test ends, and returns its base URL.
func serve(t *testing.T, a *Aggregator) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := a.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// postTo sends body to the aggregator at url over the network as p would
// (p.remote is the real address then) and returns the answer's status.
func (p poster) postTo(t *testing.T, url string, body []byte) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+Path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	switch p.token {
	case "":
		req.Header.Set("Authorization", "Bearer "+testToken)
	case "-":
	default:
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	req.Header.Set(HeaderRunner, p.id)
	if p.api != "" {
		req.Header.Set(HeaderAPI, p.api)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
