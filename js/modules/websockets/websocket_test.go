package k6websockets_test

import (
	"context"
	"io"
	"log"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/wsconn/wstest"
	"github.com/usefullatency/usefullatency/js/modules"
)

func TestEventsArriveInOrderAndTheIterationWaitsForClose(t *testing.T) {
	r := mustRun(t, `
export default function () {
  const events = [];
  const ws = new WebSocket(__ENV.WS + '/', 'chat', { tags: { k6test: 'yes' }, headers: { 'X-Test': 'h' } });
  eq(ws.readyState, WebSocket.CONNECTING, 'readyState at construction');
  eq([ws.url, ws.OPEN, WebSocket.CLOSED, ws.binaryType], [__ENV.WS + '/', 1, 3, 'blob'], 'url, constants, binaryType');
  ws.binaryType = 'arraybuffer';
  ws.onopen = (e) => {
    events.push('open:' + e.type + ':' + ws.readyState + ':' + ws.protocol);
    ws.send('a');
    ws.send(new Uint8Array([1, 2, 3]));
    ws.send('headers');
    ws.send('ping');
    ws.ping();
    ws.send('close:4001:bye');
  };
  ws.addEventListener('message', (e) => {
    if (typeof e.data === 'string') {
      events.push(e.data.startsWith('{') ? 'headers:' + JSON.parse(e.data)['X-Test'][0] : 'text:' + e.data);
    } else {
      events.push('binary:' + Array.from(new Uint8Array(e.data)).join(','));
    }
  });
  ws.onping = () => events.push('ping');
  ws.onpong = () => events.push('pong');
  ws.onerror = (e) => events.push('error:' + e.error);
  ws.onclose = (e) => {
    events.push('close:' + e.code + ':' + e.reason + ':' + e.wasClean + ':' + ws.readyState);
    eq(events, ['open:open:1:chat', 'text:a', 'binary:1,2,3', 'headers:h', 'ping', 'pong', 'close:4001:bye:true:3'], 'events');
    console.log('closed after ' + events.length + ' events');
  };
}`)
	if !strings.Contains(r.log, "closed after 7 events") {
		t.Fatalf("the iteration ended before the close event: %q", r.log)
	}
	counts := map[string]int{"ws_sessions": 1, "ws_connecting": 1, "ws_msgs_sent": 5, "ws_msgs_received": 3, "ws_ping": 1, "ws_session_duration": 1}
	for name, want := range counts {
		got := r.of(name)
		if len(got) != want {
			t.Errorf("%s: %d samples, want %d", name, len(got), want)
			continue
		}
		tags := got[0].Tags
		if tags["url"] == "" || tags["status"] != "101" || tags["subproto"] != "chat" || tags["k6test"] != "yes" || tags["scenario"] != "default" {
			t.Errorf("%s tags: %v", name, tags)
		}
	}
	for _, name := range []string{"ws_connecting", "ws_ping", "ws_session_duration", "data_sent", "data_received"} {
		if s := r.of(name); len(s) != 1 || s[0].Value <= 0 {
			t.Errorf("%s: %+v, want one positive sample", name, s)
		}
	}
	if d, c := r.of("ws_session_duration"), r.of("ws_connecting"); len(d) == 1 && len(c) == 1 && d[0].Value < c[0].Value {
		t.Errorf("session %.3f ms shorter than its handshake %.3f ms", d[0].Value, c[0].Value)
	}
}

func TestBinaryMessagesAreBlobsByDefault(t *testing.T) {
	mustRun(t, `
export default function () {
  const ws = new WebSocket(__ENV.WS);
  ws.onopen = () => ws.send(new Blob(['he', new Uint8Array([108, 108]), 'o'], { type: 'text/plain' }));
  const got = [];
  ws.onmessage = async (e) => {
    got.push(e.data instanceof Blob, e.data.size, await e.data.text());
    got.push(Array.from(new Uint8Array(await e.data.arrayBuffer())), await e.data.slice(1, -1).text());
    got.push(Array.from(await e.data.bytes()));
    ws.close();
  };
  ws.onclose = (e) => eq([got, e.code, e.wasClean], [[true, 5, 'hello', [104, 101, 108, 108, 111], 'ell', [104, 101, 108, 108, 111]], 1000, true], 'blob reads, close');
}`)
}

func TestManySocketsInOneVUKeepTheirOrder(t *testing.T) {
	r := mustRun(t, `
export default function () {
  for (let id = 0; id < 3; id++) {
    const ws = new WebSocket(__ENV.WS);
    const got = [];
    ws.onopen = () => { for (let i = 0; i < 100; i++) ws.send(id + ':' + i); };
    ws.onmessage = (e) => {
      got.push(e.data);
      if (got.length === 100) ws.close();
    };
    ws.onclose = () => {
      for (let i = 0; i < 100; i++) eq(got[i], id + ':' + i, 'message ' + i);
      console.log('socket ' + id + ' done');
    };
  }
}`)
	for _, id := range []string{"0", "1", "2"} {
		if !strings.Contains(r.log, "socket "+id+" done") {
			t.Errorf("socket %s did not finish: %q", id, r.log)
		}
	}
	if n := len(r.of("ws_msgs_received")); n != 300 {
		t.Errorf("ws_msgs_received: %d samples, want 300", n)
	}
}

func TestFailuresAreErrorAndCloseEvents(t *testing.T) {
	for _, tc := range []struct{ name, url, params, send, want string }{
		{"connection refused", "'ws://127.0.0.1:1/'", "{}", "", "refused"},
		{"handshake refused", "__ENV.WS + '/reject'", "{}", "", "403"},
		{"message over the limit", "__ENV.WS", "{ maxMessageSize: 1024 }", "big:2048", "more than 1024 bytes"},
		{"handshake head over maxHeaderSize", "__ENV.WS + '/hugehead'", "{}", "", "more than 10 MiB (maxHeaderSize)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustRun(t, `
export default function () {
  const events = [];
  const ws = new WebSocket(`+tc.url+`, null, `+tc.params+`);
  ws.onopen = () => ws.send('`+tc.send+`');
  ws.onerror = (e) => events.push('error:' + e.error);
  ws.onclose = (e) => {
    events.push('close:' + e.code + ':' + e.wasClean);
    console.log(JSON.stringify(events));
  };
}`)
			if !strings.Contains(r.log, "error:") || !strings.Contains(r.log, tc.want) || !strings.Contains(r.log, ":false") {
				t.Fatalf("events: %s", r.log)
			}
		})
	}
}

func TestTheLimitClosesWithCode1009(t *testing.T) {
	mustRun(t, `
export default function () {
  const ws = new WebSocket(__ENV.WS, null, { maxMessageSize: '1KiB' });
  ws.onopen = () => { ws.send('big:1024'); ws.send('big:1025'); };
  let sizes = [];
  ws.onmessage = async (e) => sizes.push(e.data.size);
  ws.onclose = (e) => eq([sizes, e.code], [[1024], 1009], 'the message at the limit, then 1009');
}`)
}

func TestCloseCodesBothWays(t *testing.T) {
	mustRun(t, `
export default function () {
  const client = new WebSocket(__ENV.WS);
  client.onopen = () => {
    client.close(4002, 'done');
    eq(client.readyState, WebSocket.CLOSING, 'closing');
  };
  client.onmessage = () => { throw new Error('no message after close()'); };
  client.onclose = (e) => eq([e.code, e.wasClean, client.readyState], [4002, true, 3], 'client close');

  const server = new WebSocket(__ENV.WS);
  server.onopen = () => server.send('close:4003:server says bye');
  server.onclose = (e) => eq([e.code, e.reason, e.wasClean], [4003, 'server says bye', true], 'server close');
}`)
}

// TestSendAndPingNeedAnOpenSocket checks k6's InvalidStateError from
// send() and ping() in every state but OPEN.
func TestSendAndPingNeedAnOpenSocket(t *testing.T) {
	r := mustRun(t, `
export default function () {
  const ws = new WebSocket(__ENV.WS);
  const got = [];
  const attempt = (what, fn) => {
    try { fn(); got.push(what + ': no error'); } catch (e) { got.push(what + ': ' + e.name + ': ' + e.message); }
  };
  attempt('ping connecting', () => ws.ping());
  ws.onopen = () => {
    ws.close();
    attempt('send closing', () => ws.send('x'));
    attempt('ping closing', () => ws.ping());
  };
  ws.onclose = () => {
    attempt('send closed', () => ws.send(new Uint8Array([1])));
    attempt('ping closed', () => ws.ping());
    eq(got, [
      'ping connecting: InvalidStateError: WebSocket.ping: the socket is still connecting: ping from onopen',
      'send closing: InvalidStateError: WebSocket.send: the socket is closing',
      'ping closing: InvalidStateError: WebSocket.ping: the socket is closing',
      'send closed: InvalidStateError: WebSocket.send: the socket is closed',
      'ping closed: InvalidStateError: WebSocket.ping: the socket is closed',
    ], 'errors');
    console.log('checked');
  };
}`)
	if !strings.Contains(r.log, "checked") {
		t.Fatalf("the close event did not run: %q", r.log)
	}
	if n := len(r.of("ws_msgs_sent")); n != 0 {
		t.Errorf("%d messages sent by a socket that was never open for them, want 0", n)
	}
}

// TestAPingIntervalEndsWithTheSocket runs the shape of k6's echo example: an
// interval that pings and is never cleared. Once the server closed the
// socket, the next ping throws, which fails the iteration and so ends it,
// as in k6, instead of pinging a closed socket until the run is stopped.
func TestAPingIntervalEndsWithTheSocket(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	r := runCtx(ctx, t, `
export default function () {
  const ws = new WebSocket(__ENV.WS);
  ws.onopen = () => {
    setInterval(() => ws.ping(), 20);
    ws.send('close:1000:bye');
  };
  ws.onclose = (e) => console.log('closed by the server: ' + e.code);
}`, nil)
	if r.err == nil || !strings.Contains(r.err.Error(), "InvalidStateError") || !strings.Contains(r.err.Error(), "the socket is closed") {
		t.Fatalf("err %v after %v, want the ping's InvalidStateError\n%s", r.err, time.Since(start), r.log)
	}
	if !strings.Contains(r.log, "closed by the server: 1000") {
		t.Errorf("no close event before the ping threw: %q", r.log)
	}
}

func TestBadArgumentsThrow(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"send before open", "new WebSocket(__ENV.WS).send('x')", "InvalidStateError"},
		{"ping before open", "new WebSocket(__ENV.WS).ping()", "InvalidStateError"},
		{"not a ws URL", "new WebSocket('http://x/')", "SyntaxError"},
		{"unknown param", "new WebSocket(__ENV.WS, null, { nosuch: 1 })", "params.nosuch"},
		{"jar", "new WebSocket(__ENV.WS, null, { jar: {} })", "want a CookieJar of k6/http"},
		{"compression", "new WebSocket(__ENV.WS, null, { compression: 'br' })", "only 'deflate'"},
		{"reserved close code", "const ws = new WebSocket(__ENV.WS); ws.close(1005)", "InvalidAccessError"},
		{"init context", "", "init context"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "export default function () { try { " + tc.src + " } catch (e) { throw new Error(e.name + ': ' + e.message); } }"
			if tc.src == "" {
				src = "new WebSocket('ws://127.0.0.1:1/');\nexport default function () {}"
			}
			r := run(t, src)
			if r.err == nil || !strings.Contains(r.err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", r.err, tc.want)
			}
		})
	}
}

func TestAnExceptionInAHandlerFailsTheIteration(t *testing.T) {
	r := run(t, `
export default function () {
  const ws = new WebSocket(__ENV.WS);
  ws.onopen = () => { throw new Error('boom in onopen'); };
}`)
	if r.err == nil || !strings.Contains(r.err.Error(), "boom in onopen") {
		t.Fatalf("err %v", r.err)
	}
}

func TestAnInterruptedIterationCutsTheSocket(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		done <- runCtx(ctx, t, `
export default function () {
  const ws = new WebSocket(__ENV.WS);
  ws.onclose = () => console.log('close dispatched');
}`, cancel)
	}()
	select {
	case r := <-done:
		if strings.Contains(r.log, "close dispatched") {
			t.Fatalf("an event was dispatched after the iteration ended: %q", r.log)
		}
		if n := len(r.of("ws_session_duration")); n != 1 {
			t.Fatalf("the cut session has %d ws_session_duration samples, want 1", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the iteration did not end when its context did")
	}
}

func TestCompressionIsNegotiated(t *testing.T) {
	mustRun(t, `
export default function () {
  const ws = new WebSocket(__ENV.WS, null, { compression: 'deflate' });
  ws.onerror = (e) => { throw new Error(e.error); };
  ws.onopen = () => { eq(ws.extensions.includes('permessage-deflate'), true, 'extensions'); ws.send('x'.repeat(1000)); };
  ws.onmessage = (e) => { eq(e.data.length, 1000, 'echo'); ws.close(); };
}`)
}

func TestTheRunsNetworkOptionsApply(t *testing.T) {
	r := runWith(t, `
export default function () {
  const port = __ENV.WS.split(':')[2];
  const routed = new WebSocket('ws://echo.test:' + port + '/');
  routed.onopen = () => routed.send('headers');
  routed.onerror = (e) => { throw new Error('routed: ' + e.error); };
  routed.onmessage = (e) => {
    eq(JSON.parse(e.data)['User-Agent'], ['tester/1'], 'userAgent option');
    routed.close();
  };
  const blocked = new WebSocket('ws://blocked.test:' + port + '/');
  blocked.onerror = (e) => console.log('blocked: ' + e.error);
}`, map[string]any{"hosts": map[string]any{"echo.test": "127.0.0.1"}, "blockHostnames": []any{"blocked.test"}, "userAgent": "tester/1"})
	if r.err != nil || !strings.Contains(r.log, "blocked: ") || !strings.Contains(r.log, "hostname is blocked") {
		t.Fatalf("err %v, log %q", r.err, r.log)
	}
}

func TestSecureSocketsUseTheRunsTLSOptions(t *testing.T) {
	srv := httptest.NewUnstartedServer(wstest.Handler(nil))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused certificate is on purpose
	srv.StartTLS()
	defer srv.Close()
	wss := "wss" + strings.TrimPrefix(srv.URL, "https")
	src := `
export default function () {
  const ws = new WebSocket('` + wss + `');
  ws.onopen = () => ws.send('over TLS');
  ws.onmessage = (e) => { console.log('echo: ' + e.data); ws.close(); };
  ws.onerror = (e) => console.log('error: ' + e.error);
}`
	unverified := runOpts(context.Background(), t, src, nil, nil)
	if !strings.Contains(unverified.log, "error: ") || !strings.Contains(unverified.log, "certificate") {
		t.Fatalf("an unknown certificate was accepted: %q", unverified.log)
	}
	skipped := runOpts(context.Background(), t, src, nil, func(r *modules.Run) { r.InsecureSkipTLSVerify = true })
	if !strings.Contains(skipped.log, "echo: over TLS") {
		t.Fatalf("insecureSkipTLSVerify: %v %q", skipped.err, skipped.log)
	}
}

func TestCloseBeforeOpenAndRemovedListeners(t *testing.T) {
	r := mustRun(t, `
export default function () {
  const early = new WebSocket(__ENV.WS);
  early.onopen = () => { throw new Error('no open after close()'); };
  early.close(4004);
  early.onclose = (e) => console.log('early close ' + e.code + ' ' + early.readyState);

  const ws = new WebSocket(__ENV.WS);
  const seen = [];
  const drop = () => seen.push('removed listener ran');
  ws.addEventListener('message', drop);
  ws.addEventListener('message', (e) => { seen.push(e.data); ws.close(); });
  ws.removeEventListener('message', drop);
  ws.onopen = () => ws.send('kept');
  eq(typeof ws.onopen, 'function', 'onopen getter');
  ws.onclose = () => eq(seen, ['kept'], 'listeners');
}`)
	if !strings.Contains(r.log, "early close 4004 3") {
		t.Fatalf("log %q", r.log)
	}
}

func TestTheExperimentalNameImportsTheSameAPI(t *testing.T) {
	mustRun(t, `
import { WebSocket as Old } from 'k6/experimental/websockets';
export default function () {
  const ws = new Old(__ENV.WS);
  ws.onerror = (e) => { throw new Error(e.error); };
  ws.onopen = () => ws.send('hi');
  ws.onmessage = (e) => { eq(e.data, 'hi', 'echo'); ws.close(); };
}`)
}

func TestHandshakesCarryTheJarsCookies(t *testing.T) {
	r := mustRun(t, `
import http from 'k6/http';
export default function () {
  const base = __ENV.WS.replace('ws://', 'http://') + '/';
  http.cookieJar().set(base, 'session', 'vu');
  const own = new http.CookieJar();
  own.set(base, 'session', 'own');
  const cookies = {};
  for (const [name, params] of [['vu', {}], ['own', { jar: own }], ['none', { jar: null }]]) {
    const ws = new WebSocket(__ENV.WS, null, params);
    ws.onopen = () => ws.send('headers');
    ws.onmessage = (e) => {
      cookies[name] = JSON.parse(e.data)['Cookie'] || null;
      ws.close();
      if (Object.keys(cookies).length === 3) {
        eq([cookies.vu, cookies.own, cookies.none], [['session=vu'], ['session=own'], null], 'cookies by jar');
        console.log('checked');
      }
    };
  }
}`)
	if !strings.Contains(r.log, "checked") {
		t.Fatal(r.log)
	}
}

func TestCookiesTheHandshakeSetsGoToTheVUsJar(t *testing.T) {
	mustRun(t, `
import http from 'k6/http';
export default function () {
  const ws = new WebSocket(__ENV.WS + '/cookie');
  ws.onerror = (e) => { throw new Error(e.error); };
  ws.onopen = () => {
    eq(http.cookieJar().cookiesForURL(__ENV.WS.replace('ws://', 'http://') + '/').from_ws, ['1'], 'cookie from the handshake');
    ws.close();
  };
}`)
}
