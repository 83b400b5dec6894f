package sse

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// withUser returns base (http://host:port) with user information.
func withUser(base, userinfo string) string {
	return strings.Replace(base, "http://", "http://"+userinfo+"@", 1)
}

// TestURLCredentialsAreBasicAuthOnEveryPath sends a request whose URL
// carries user:pass@ on the reactor, the reactor with a callback and
// net/http: every path sends the same Authorization header; one the
// request sets wins over the URL's; a redirect to another host carries
// none, a relative one on the same host carries it again; and the
// password is in no error message.
func TestURLCredentialsAreBasicAuthOnEveryPath(t *testing.T) {
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte("ann:p@ss w:rd"))
	for p := range paths {
		t.Run(paths[p].name, func(t *testing.T) {
			srv := newLandingServer(t, false)
			c, r := onPath(p, Request{URL: withUser(srv.URL, "ann:p%40ss%20w:rd") + "/land", Dialect: DialectRaw})
			if res := c.Do(context.Background(), r); res.Failed() || res.Text != "ok" {
				t.Fatalf("%s %q", res.ErrorCode, res.Error)
			}
			got := srv.received("/land")
			if len(got) != 1 || got[0].header.Get("Authorization") != want {
				t.Fatalf("Authorization %q, want %q", got[0].header.Get("Authorization"), want)
			}

			c, r = onPath(p, Request{URL: withUser(srv.URL, "ann:pw") + "/land", Dialect: DialectRaw,
				Header: http.Header{"Authorization": {"Bearer mine"}}})
			c.Do(context.Background(), r)
			if got := srv.received("/land"); len(got) != 2 || got[1].header.Values("Authorization")[0] != "Bearer mine" || len(got[1].header.Values("Authorization")) != 1 {
				t.Fatalf("with an Authorization header: %v", got[len(got)-1].header.Values("Authorization"))
			}

			for _, tc := range []struct {
				name   string
				target func(origin, other *landingServer) string
				land   func(origin, other *landingServer) *landingServer
				auth   string
			}{
				{"to another host", func(_, o *landingServer) string { return o.URL }, func(_, o *landingServer) *landingServer { return o }, ""},
				{"relative, same host", func(*landingServer, *landingServer) string { return "" }, func(s, _ *landingServer) *landingServer { return s }, want},
			} {
				origin, other := newLandingServer(t, false), newLandingServer(t, false)
				origin.redirectTo(func() string { return tc.target(origin, other) })
				c, r := onPath(p, Request{URL: withUser(origin.URL, "ann:p%40ss%20w:rd") + "/start/302", Dialect: DialectRaw})
				if res := c.Do(context.Background(), r); res.Failed() || res.Text != "ok" {
					t.Fatalf("%s: %s %q", tc.name, res.ErrorCode, res.Error)
				}
				start, land := origin.received("/start/"), tc.land(origin, other).received("/land")
				if len(start) != 1 || start[0].header.Get("Authorization") != want || len(land) != 1 {
					t.Fatalf("%s: the origin got %d requests, the target %d", tc.name, len(start), len(land))
				}
				if got := land[0].header.Get("Authorization"); got != tc.auth {
					t.Errorf("%s: the redirect carried Authorization %q, want %q", tc.name, got, tc.auth)
				}
			}

			c, r = onPath(p, Request{URL: "http://ann:hunter2@127.0.0.1:1/x", Dialect: DialectRaw})
			if res := c.Do(context.Background(), r); !res.Failed() || strings.Contains(fmt.Sprint(res.Error), "hunter2") {
				t.Fatalf("a refused connection: %s %q", res.ErrorCode, res.Error)
			}
		})
	}
}
