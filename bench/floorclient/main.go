// Command floorclient is the floor of the streaming load benchmark: the
// leanest Go client of bench/sseserver we could write (net/http with a
// shared connection pool, one goroutine per stream, lines read with
// bufio.Reader.ReadSlice, no JavaScript, no metrics engine), driven
// open-loop like bench/streams.js. Its first_text error and CPU per 1,000
// streams say what this machine allows at all; the runner's numbers are
// read against them.
//
//	go run ./bench/floorclient -url http://127.0.0.1:PORT -rate 500 -duration 30s
//
// The error is measured like streams.js does: the time from handing the
// request to the transport to the line of the first visible text coming off
// the network, minus the server's first_text_ms.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"sort"
	"sync"
	"syscall"
	"time"
)

func main() {
	url := flag.String("url", "", "bench/sseserver URL")
	rate := flag.Float64("rate", 500, "new streams per second")
	duration := flag.Duration("duration", 30*time.Second, "how long to start streams")
	flag.Parse()
	if *url == "" || *rate <= 0 {
		fmt.Fprintln(os.Stderr, "floorclient: -url and a positive -rate are required")
		os.Exit(2)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 1 << 16, DisableCompression: true}
	client := &http.Client{Transport: tr}
	var (
		mu     sync.Mutex
		errs   []float64
		failed int
		wg     sync.WaitGroup
	)
	n := int(*rate * duration.Seconds())
	interval := time.Duration(float64(time.Second) / *rate)
	start := time.Now()
	for i := range n {
		if d := time.Until(start.Add(time.Duration(i) * interval)); d > 0 {
			time.Sleep(d)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, ok := stream(client, *url+"/chat")
			mu.Lock()
			defer mu.Unlock()
			if !ok {
				failed++
				return
			}
			errs = append(errs, e)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	sort.Float64s(errs)
	q := func(p float64) float64 {
		if len(errs) == 0 {
			return 0
		}
		return errs[int(p*float64(len(errs)-1))]
	}
	fmt.Printf("floorclient: %d streams in %.1fs (%.1f/s), failed %d, first_text_error p50 %.3f ms p99 %.3f ms max %.3f ms, "+
		"%.3f CPU-s per 1000 streams, peak RSS %d MB\n",
		n, elapsed.Seconds(), float64(n)/duration.Seconds(), failed, q(0.5), q(0.99), q(1),
		cpu.Seconds()/float64(n)*1000, ru.Maxrss>>10)
}

var (
	textMarker = []byte(`{"delta": "`)
	dataPrefix = []byte("data: ")
)

// stream sends one request and returns the first_text error in ms.
func stream(c *http.Client, url string) (float64, bool) {
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(`{"bucket":"qa","question":"Can I return my order?"}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	sent := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	br := bufio.NewReaderSize(resp.Body, 512)
	var firstText time.Duration
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return 0, false
		}
		if !bytes.HasPrefix(line, dataPrefix) {
			continue
		}
		at := time.Since(sent)
		data := line[len(dataPrefix):]
		if firstText == 0 && bytes.HasPrefix(data, textMarker) {
			if c := data[len(textMarker)]; c != '"' && c != ' ' {
				firstText = at
			}
		}
		if bytes.Contains(data, []byte(`"done": true`)) {
			var ev struct {
				State struct {
					FirstTextMS float64 `json:"first_text_ms"`
				} `json:"business_state"`
			}
			if json.Unmarshal(data, &ev) != nil || firstText == 0 {
				return 0, false
			}
			return float64(firstText)/float64(time.Millisecond) - ev.State.FirstTextMS, true
		}
	}
}
