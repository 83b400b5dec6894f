package k6http

import (
	"net/http"
	"testing"
	"time"
)

func TestPhaseTimings(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	cases := []struct {
		name string
		p    phases
		want timings
	}{
		{"new TLS connection", phases{
			getConn: at(0), connectStart: at(5), connectDone: at(8), tlsStart: at(8), tlsDone: at(20),
			gotConn: at(20), wrote: at(21), firstByte: at(31), done: at(34),
		}, timings{Blocked: 5, Connecting: 3, TLSHandshaking: 12, Sending: 1, Waiting: 10, Receiving: 3, Duration: 14}},
		{"reused connection", phases{getConn: at(0), gotConn: at(1), wrote: at(2), firstByte: at(7), done: at(9)},
			timings{Blocked: 1, Sending: 1, Waiting: 5, Receiving: 2, Duration: 8}},
		{"refused", phases{getConn: at(0), connectStart: at(2), connectDone: at(3), done: at(3)},
			timings{Blocked: 2, Connecting: 1}},
		{"no response", phases{getConn: at(0), gotConn: at(0), wrote: at(1), done: at(50)},
			timings{Sending: 1, Duration: 1}},
	}
	for _, c := range cases {
		if got := c.p.timings(); got != c.want {
			t.Errorf("%s: timings = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestRedirectRules(t *testing.T) {
	h := http.Header{"Content-Type": {"text/plain"}, "Authorization": {"Basic x"}, "X-A": {"1"}}
	for _, c := range []struct {
		status     int
		method     string
		wantMethod string
		keepsBody  bool
	}{
		{301, "POST", "GET", false}, {302, "PUT", "GET", false}, {303, "POST", "GET", false},
		{302, "HEAD", "HEAD", false}, {307, "POST", "POST", true}, {308, "PATCH", "PATCH", true},
	} {
		m, body, hh := redirectMethod(c.status, c.method, []byte("b"), h)
		if m != c.wantMethod || (body != nil) != c.keepsBody || (hh.Get("Content-Type") != "") != c.keepsBody {
			t.Errorf("%d %s: %s, body %q, headers %v", c.status, c.method, m, body, hh)
		}
	}
	if got := redirectHeader(h, "http://a/x", "http://a/y"); got.Get("Authorization") == "" {
		t.Error("same origin: credentials dropped")
	}
	for _, next := range []string{"http://b/y", "https://a/y", "http://a:81/y"} {
		got := redirectHeader(h, "http://a/x", next)
		if got.Get("Authorization") != "" || got.Get("X-A") != "1" {
			t.Errorf("to %s: headers %v, want credentials dropped, the rest kept", next, got)
		}
	}
	if h.Get("Authorization") == "" {
		t.Error("the original headers were modified")
	}
}
