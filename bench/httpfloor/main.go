// Command httpfloor is the floor of the k6/http load benchmark
// (bench/http.sh): plain net/http GETs of a URL at a constant arrival rate,
// at most -vus in flight (the VUs of bench/http.js), with no JavaScript and
// no metrics. Its CPU per request is what the machine and net/http cost at
// that rate; the runner's is compared with it. Like an arrival-rate
// executor it drops a request whose start finds all -vus in flight: its
// drops are what the machine's stalls cost a client that does nothing else.
//
//	httpfloor -url http://127.0.0.1:8080/ -rate 1000 -duration 10s -vus 100
//
// prints the requests sent, the failures and the dropped requests.
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	url := flag.String("url", "", "URL to GET")
	rate := flag.Int("rate", 1000, "requests per second")
	duration := flag.Duration("duration", 10*time.Second, "how long to send")
	vus := flag.Int("vus", 50, "requests in flight at most")
	flag.Parse()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *vus, DisableCompression: true}}
	slots := make(chan struct{}, *vus)
	var (
		wg      sync.WaitGroup
		failed  atomic.Int64
		dropped int
	)
	start := time.Now()
	n := int(duration.Seconds() * float64(*rate))
	for i := range n {
		time.Sleep(time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(*rate))))
		select {
		case slots <- struct{}{}:
		default:
			dropped++
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			if !get(client, *url) {
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	fmt.Println(n-dropped, failed.Load(), dropped)
}

// get sends one GET and reads the whole body; false when it failed.
func get(c *http.Client, url string) bool {
	res, err := c.Get(url)
	if err != nil {
		return false
	}
	defer res.Body.Close()
	_, err = io.Copy(io.Discard, res.Body)
	return err == nil && res.StatusCode == http.StatusOK
}
