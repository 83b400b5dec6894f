package wsconn

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// server is a loopback WebSocket server: /echo echoes every message with
// its type; /silent upgrades and never reads; /reject answers 403.
func server(t *testing.T) string {
	t.Helper()
	up := websocket.Upgrader{}
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		for {
			kind, data, err := c.ReadMessage()
			if err != nil {
				return
			}
			if err := c.WriteMessage(kind, data); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/silent", func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		<-r.Context().Done()
	})
	mux.HandleFunc("/reject", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// collect runs c and returns its events once the Close arrived.
func collect(c *Conn) <-chan []Event {
	out := make(chan []Event, 1)
	go func() {
		var evs []Event
		c.Run(func(ev Event) bool { evs = append(evs, ev); return true })
		out <- evs
	}()
	return out
}

func TestEchoInOrderThenCleanClose(t *testing.T) {
	base := server(t)
	c, hs, err := Dial(context.Background(), base+"/echo", Config{})
	if err != nil {
		t.Fatal(err)
	}
	if hs.Status != http.StatusSwitchingProtocols {
		t.Fatalf("status %d", hs.Status)
	}
	done := collect(c)
	for i := range 50 {
		c.Send(i%2 == 0, []byte{byte('a' + i%26)})
	}
	c.Ping()
	evs := waitEvents(t, done, c, 51)
	for i := range 50 {
		ev := evs[i]
		if ev.Kind != Message || ev.Text != (i%2 == 0) || ev.Data[0] != byte('a'+i%26) {
			t.Fatalf("event %d: %+v", i, ev)
		}
	}
	if evs[50].Kind != Pong || evs[50].RTT <= 0 {
		t.Fatalf("pong: %+v", evs[50])
	}
	last := evs[len(evs)-1]
	if last.Kind != Close || !last.Clean || last.Code != 4000 || last.Err != nil {
		t.Fatalf("close: %+v", last)
	}
	if sent, recv := c.Bytes(); sent < 50*7 || recv < 50*3 {
		t.Fatalf("bytes sent %d, received %d", sent, recv)
	}
}

// waitEvents waits until n events that are not the close came, then
// closes with 4000 and returns every event.
func waitEvents(t *testing.T, done <-chan []Event, c *Conn, n int) []Event {
	t.Helper()
	// Close is queued after the messages and the ping: the server echoes
	// them all before it reads the close frame.
	c.Close(4000, "done")
	select {
	case evs := <-done:
		if len(evs) != n+1 {
			t.Fatalf("%d events, want %d: %+v", len(evs), n+1, evs)
		}
		return evs
	case <-time.After(10 * time.Second):
		t.Fatal("no close")
	}
	return nil
}

func TestMessageOverTheLimitEndsTheConnection(t *testing.T) {
	c, _, err := Dial(context.Background(), server(t)+"/echo", Config{MaxMessageSize: 16})
	if err != nil {
		t.Fatal(err)
	}
	done := collect(c)
	c.Send(true, []byte(strings.Repeat("x", 17)))
	evs := <-done
	last := evs[len(evs)-1]
	if len(evs) != 1 || last.Kind != Close || last.Clean || last.Code != 1009 || !strings.Contains(last.Err.Error(), "more than 16 bytes") {
		t.Fatalf("events %+v", evs)
	}
}

func TestServerThatNeverAnswersTheCloseIsCut(t *testing.T) {
	c, _, err := Dial(context.Background(), server(t)+"/silent", Config{CloseTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	done := collect(c)
	c.Close(1000, "")
	evs := <-done
	last := evs[len(evs)-1]
	if last.Kind != Close || last.Clean || last.Code != 1006 || !strings.Contains(last.Err.Error(), "did not answer the close frame") {
		t.Fatalf("events %+v", evs)
	}
}

func TestRefusedUpgradeReturnsTheResponse(t *testing.T) {
	_, hs, err := Dial(context.Background(), server(t)+"/reject", Config{})
	if err == nil || hs == nil || hs.Status != http.StatusForbidden || !strings.Contains(hs.Body, "no") {
		t.Fatalf("err %v, handshake %+v", err, hs)
	}
	if !strings.Contains(err.Error(), "403") {
		t.Fatalf("err %v", err)
	}
}

func TestAbortDeliversNothingMore(t *testing.T) {
	c, _, err := Dial(context.Background(), server(t)+"/silent", Config{})
	if err != nil {
		t.Fatal(err)
	}
	done := collect(c)
	c.Abort()
	if evs := <-done; len(evs) != 0 {
		t.Fatalf("events after Abort: %+v", evs)
	}
}

func TestAbortReleasesAConnectionThatNeverRan(t *testing.T) {
	c, _, err := Dial(context.Background(), server(t)+"/silent", Config{})
	if err != nil {
		t.Fatal(err)
	}
	c.Abort()
	select {
	case <-c.cutDone:
	case <-time.After(10 * time.Second):
		t.Fatal("Abort did not release the writer")
	}
	if c.Send(true, []byte("x")) || c.Ping() {
		t.Fatal("a message was queued after Abort")
	}
}

func TestASilentServerFailsTheHandshakeAtItsTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered, until the test ends
		}
	}()
	start := time.Now()
	_, hs, err := Dial(context.Background(), "ws://"+ln.Addr().String()+"/", Config{HandshakeTimeout: 200 * time.Millisecond})
	if err == nil || hs != nil {
		t.Fatalf("err %v, handshake %+v", err, hs)
	}
	if took := time.Since(start); took < 200*time.Millisecond || took > 5*time.Second {
		t.Fatalf("the handshake failed after %s, want its 200ms timeout", took)
	}
}
