// Command httpserver is the plain HTTP server of the k6/http load
// benchmark (bench/http.js, bench/http.sh): every request, any method and
// path, gets the same 1 KiB body.
//
//	go run ./bench/httpserver -addr 127.0.0.1:0
//
// prints the server's URL on the first line of stdout and serves until
// SIGINT or SIGTERM.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	flag.Parse()
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "httpserver:", err)
		os.Exit(1)
	}
	body := bytes.Repeat([]byte("x"), 1024)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write(body)
	})}
	fmt.Printf("http://%s\n", l.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(l); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "httpserver:", err)
		os.Exit(1)
	}
}
