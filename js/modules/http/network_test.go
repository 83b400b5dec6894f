package k6http_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// peerServer answers every request with the address it came from.
func peerServer(t *testing.T) (port string) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		fmt.Fprint(w, host)
	}))
	t.Cleanup(srv.Close)
	_, port, _ = net.SplitHostPort(srv.Listener.Addr().String())
	return port
}

func TestLocalIPsOption(t *testing.T) {
	port := peerServer(t)
	env := map[string]string{"PORT": port}
	// The test VU is VU 1: it sends from the first address of the list.
	mustRun(t, `export default function () {
  const r = http.get('http://127.0.0.1:' + __ENV.PORT + '/');
  eq([r.status, r.body], [200, '127.0.0.3'], 'sent from the VU\'s local IP');
}`, env, withOptions(map[string]any{"localIPs": "127.0.0.3-127.0.0.4,127.0.0.2"}))
	mustRun(t, `export default function () {
  eq(http.get('http://127.0.0.1:' + __ENV.PORT + '/').body, '127.0.0.1', 'no localIPs');
}`, env)
}

func TestDNSOption(t *testing.T) {
	port := peerServer(t)
	env := map[string]string{"PORT": port}
	// localhost resolves to 127.0.0.1 (and maybe ::1); the server listens on
	// 127.0.0.1 only.
	mustRun(t, `export default function () {
  const r = http.get('http://localhost:' + __ENV.PORT + '/');
  eq([r.status, r.remote_ip], [200, '127.0.0.1'], 'onlyIPv4');
}`, env, withOptions(map[string]any{"dns": map[string]any{"ttl": "inf", "select": "first", "policy": "onlyIPv4"}}))
	mustRun(t, `export default function () {
  const r = http.get('http://localhost:' + __ENV.PORT + '/');
  eq(r.status, 0, 'onlyIPv6 never dials 127.0.0.1');
  if (![1101, 1210, 1212].includes(r.error_code)) throw new Error('error_code ' + r.error_code + ': ' + r.error);
}`, env, withOptions(map[string]any{"dns": map[string]any{"policy": "onlyIPv6"}}))
}

func TestRPSOption(t *testing.T) {
	srv := newServer(t)
	// 10 requests at 20 rps: the first at once, the last 450 ms later at the
	// earliest; batch requests wait too.
	start := time.Now()
	mustRun(t, `export default function () {
  for (let i = 0; i < 5; i++) http.get(__ENV.BASE + '/echo');
  const rs = http.batch([__ENV.BASE + '/echo', __ENV.BASE + '/echo', __ENV.BASE + '/echo', __ENV.BASE + '/echo', __ENV.BASE + '/echo']);
  eq(rs.map((r) => r.status), [200, 200, 200, 200, 200], 'batch');
}`, map[string]string{"BASE": srv.URL}, withOptions(map[string]any{"rps": float64(20)}))
	if el := time.Since(start); el < 450*time.Millisecond {
		t.Errorf("10 requests at rps 20 took %v, want at least 450ms", el)
	}
	start = time.Now()
	mustRun(t, `export default function () {
  for (let i = 0; i < 10; i++) http.get(__ENV.BASE + '/echo');
}`, map[string]string{"BASE": srv.URL})
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("10 requests without rps took %v", el)
	}
}

func TestHTTPDebugOption(t *testing.T) {
	srv := newServer(t)
	src := `export default function () {
  http.post(__ENV.BASE + '/echo?api_key=k3y&x=1', 'the-body', {
    headers: {Authorization: 'Bearer s3cret', Cookie: 'session=c00kie', 'X-Plain': 'visible'},
    tags: {name: 'echo'},
  });
}`
	r := mustRun(t, src, map[string]string{"BASE": srv.URL}, withOptions(map[string]any{"httpDebug": "headers"}))
	for _, want := range []string{
		"INFO[0000] Request:  iter=0 name=echo request_id=",
		"source=http-debug vu=1\nPOST /echo?api_key=REDACTED&x=1 HTTP/1.1\nHost: 127.0.0.1:",
		"Authorization: REDACTED\n", "Cookie: REDACTED\n", "X-Plain: visible\n", "Content-Length: 8\n",
		"INFO[0000] Response:  iter=0 name=echo request_id=",
		"HTTP/1.1 200 OK\nContent-Length: ", "Content-Type: application/json\n",
	} {
		if !strings.Contains(r.log, want) {
			t.Errorf("headers log lacks %q:\n%s", want, r.log)
		}
	}
	for _, secret := range []string{"s3cret", "c00kie", "k3y", "the-body", `"method"`} {
		if strings.Contains(r.log, secret) {
			t.Errorf("headers log shows %q:\n%s", secret, r.log)
		}
	}
	r = mustRun(t, src, map[string]string{"BASE": srv.URL}, withOptions(map[string]any{"httpDebug": "full"}))
	for _, want := range []string{"\n\nthe-body\n", `"method":"POST"`} {
		if !strings.Contains(r.log, want) {
			t.Errorf("full log lacks %q:\n%s", want, r.log)
		}
	}
	// The bodies are logged as they are (this server echoes the secrets);
	// the request line and headers stay masked.
	if strings.Contains(r.log, "Authorization: Bearer") || strings.Contains(r.log, "api_key=k3y&") {
		t.Errorf("full log shows a secret header or query value:\n%s", r.log)
	}
	if r := mustRun(t, src, map[string]string{"BASE": srv.URL}); r.log != "" {
		t.Errorf("without httpDebug the log has:\n%s", r.log)
	}
}
