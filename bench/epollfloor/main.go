//go:build linux

// Command epollfloor is the lowest floor of the streaming load benchmark:
// no HTTP library and no goroutine per stream, but raw kept-alive sockets
// and one OS thread blocked in epoll_wait that reads every stream, stamps
// each read, and finds bench/sseserver's events by a byte search of their
// known shape. It pays what reading the streams costs on this machine and
// nothing more: the runner's CPU per 1,000 streams and first_text error are
// read against it (bench/run.sh, section "floor").
//
//	go run ./bench/epollfloor -url http://127.0.0.1:PORT -rate 1500 -duration 30s
//
// The error is measured like bench/streams.js does: from just before the
// request is written to the read that returned the first visible text,
// minus the server's first_text_ms.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// stream is one kept-alive connection and the state of its current stream.
type stream struct {
	fd        int
	sent      time.Time
	firstText time.Duration
	done      bool   // the final event arrived; the end of the body follows
	carry     []byte // an incomplete line from the previous read
}

// floor is the client: the open streams by descriptor, the idle ones, and
// the errors of the finished ones.
type floor struct {
	epfd     int
	mu       sync.Mutex
	streams  map[int]*stream
	idle     []*stream
	errs     []float64 // first_text errors, ms; a stream without one failed
	finished int
	all      chan struct{} // closed when every stream finished
	want     int
}

var (
	textMarker  = []byte(`data: {"delta": "`)
	firstTextMS = []byte(`"first_text_ms": `)
	lastChunk   = []byte("0\r")
)

func main() {
	rawURL := flag.String("url", "", "bench/sseserver URL")
	rate := flag.Float64("rate", 500, "new streams per second")
	duration := flag.Duration("duration", 30*time.Second, "how long to start streams")
	flag.Parse()
	u, err := url.Parse(*rawURL)
	if err != nil || u.Host == "" || *rate <= 0 {
		fmt.Fprintln(os.Stderr, "epollfloor: -url http://host:port and a positive -rate are required")
		os.Exit(2)
	}
	addr, err := net.ResolveTCPAddr("tcp4", u.Host)
	if err != nil {
		fmt.Fprintln(os.Stderr, "epollfloor:", err)
		os.Exit(2)
	}
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		fmt.Fprintln(os.Stderr, "epollfloor:", err)
		os.Exit(1)
	}
	n := int(*rate * duration.Seconds())
	f := &floor{epfd: epfd, streams: map[int]*stream{}, all: make(chan struct{}), want: n}
	go f.read()
	body := `{"bucket":"qa","question":"Can I return my order?"}`
	req := []byte(fmt.Sprintf("POST /chat HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"Accept: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", u.Host, len(body), body))
	interval := time.Duration(float64(time.Second) / *rate)
	start := time.Now()
	for i := range n {
		if d := time.Until(start.Add(time.Duration(i) * interval)); d > 0 {
			time.Sleep(d)
		}
		f.send(addr, req)
	}
	select {
	case <-f.all:
	case <-time.After(10 * time.Second):
	}
	f.report(n, time.Since(start), *duration)
}

// send writes a request on an idle connection, or on a new one.
func (f *floor) send(addr *net.TCPAddr, req []byte) {
	f.mu.Lock()
	var s *stream
	if k := len(f.idle); k > 0 {
		s, f.idle = f.idle[k-1], f.idle[:k-1]
	}
	f.mu.Unlock()
	if s == nil {
		var err error
		if s, err = f.connect(addr); err != nil {
			f.fail()
			return
		}
	}
	f.mu.Lock()
	s.sent, s.firstText, s.done, s.carry = time.Now(), 0, false, s.carry[:0]
	f.mu.Unlock()
	if _, err := syscall.Write(s.fd, req); err != nil {
		f.fail()
	}
}

// connect opens a socket and adds it to the epoll set.
func (f *floor) connect(addr *net.TCPAddr) (*stream, error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	sa := &syscall.SockaddrInet4{Port: addr.Port}
	copy(sa.Addr[:], addr.IP.To4())
	if err := syscall.Connect(fd, sa); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	_ = syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
	_ = syscall.SetNonblock(fd, true)
	s := &stream{fd: fd}
	f.mu.Lock()
	f.streams[fd] = s
	f.mu.Unlock()
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(fd)}
	return s, syscall.EpollCtl(f.epfd, syscall.EPOLL_CTL_ADD, fd, &ev)
}

// read is the reading thread: it blocks in epoll_wait and reads every
// readable stream once per wake-up.
func (f *floor) read() {
	runtime.LockOSThread()
	events := make([]syscall.EpollEvent, 256)
	buf := make([]byte, 64<<10)
	for {
		k, err := syscall.EpollWait(f.epfd, events, -1)
		if err != nil {
			continue
		}
		for _, ev := range events[:k] {
			f.mu.Lock()
			s := f.streams[int(ev.Fd)]
			f.mu.Unlock()
			m, err := syscall.Read(s.fd, buf)
			if m <= 0 || err != nil {
				continue
			}
			f.scan(s, buf[:m], time.Now())
		}
	}
}

// scan looks through the lines of one read for the first visible text, the
// final event and the end of the body.
func (f *floor) scan(s *stream, data []byte, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	at := now.Sub(s.sent)
	if len(s.carry) > 0 {
		data = append(s.carry, data...)
		s.carry = s.carry[:0]
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			s.carry = append(s.carry, data...)
			return
		}
		line := data[:i]
		data = data[i+1:]
		switch {
		case bytes.HasPrefix(line, textMarker):
			if c := line[len(textMarker)]; s.firstText == 0 && c != '"' && c != ' ' {
				s.firstText = at
			}
			if j := bytes.Index(line, firstTextMS); j >= 0 {
				f.end(s, line[j+len(firstTextMS):])
			}
		case s.done && bytes.Equal(line, lastChunk):
			s.done = false
			f.idle = append(f.idle, s)
			f.finished++
			if f.finished == f.want {
				close(f.all)
			}
		}
	}
}

// end records a stream's error from the server's first_text_ms.
func (f *floor) end(s *stream, rest []byte) {
	s.done = true
	k := bytes.IndexAny(rest, ",}")
	server, err := strconv.ParseFloat(string(rest[:max(k, 0)]), 64)
	if err != nil || s.firstText == 0 {
		return
	}
	f.errs = append(f.errs, float64(s.firstText)/float64(time.Millisecond)-server)
}

// fail ends a stream that could not be sent.
func (f *floor) fail() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.finished++
	if f.finished == f.want {
		close(f.all)
	}
}

// report prints the run's line (bench/run.sh parses it).
func (f *floor) report(n int, elapsed, duration time.Duration) {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	f.mu.Lock()
	defer f.mu.Unlock()
	sort.Float64s(f.errs)
	q := func(p float64) float64 {
		if len(f.errs) == 0 {
			return 0
		}
		return f.errs[int(p*float64(len(f.errs)-1))]
	}
	fmt.Printf("epollfloor: %d streams in %.1fs (%.1f/s), failed %d, first_text_error p50 %.3f ms p99 %.3f ms max %.3f ms, "+
		"%.3f CPU-s per 1000 streams, peak RSS %d MB\n",
		n, elapsed.Seconds(), float64(n)/duration.Seconds(), n-len(f.errs), q(0.5), q(0.99), q(1),
		cpu.Seconds()/float64(n)*1000, ru.Maxrss>>10)
}
