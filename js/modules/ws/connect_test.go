package k6ws_test

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestConnectRunsTheHandlersInOrderUntilClose(t *testing.T) {
	r := mustRun(t, `
export default function () {
  const events = [];
  const res = ws.connect(__ENV.WS + '/', { tags: { k6test: 'yes' }, headers: { 'X-Test': 'h' } }, (socket) => {
    socket.on('open', () => {
      events.push('open');
      socket.send('a');
      socket.sendBinary(new Uint8Array([1, 2, 3]).buffer);
      socket.send('headers');
      socket.send('ping');
      socket.ping();
      socket.send('close:1000:done');
    });
    socket.on('message', (m) => events.push(m.startsWith('{') ? 'headers:' + JSON.parse(m)['X-Test'][0] : 'text:' + m));
    socket.on('binaryMessage', (b) => events.push('binary:' + Array.from(new Uint8Array(b)).join(',')));
    socket.on('ping', () => events.push('ping'));
    socket.on('pong', () => events.push('pong'));
    socket.on('error', (e) => events.push('error:' + e.error()));
    socket.on('close', (code) => events.push('close:' + code));
  });
  eq(events, ['open', 'text:a', 'binary:1,2,3', 'headers:h', 'ping', 'pong', 'close:1000'], 'events');
  eq([res.status, res.url, res.error, res.headers['Upgrade']], [101, __ENV.WS + '/', '', 'websocket'], 'response');
  console.log('connect returned after close');
}`)
	if !strings.Contains(r.log, "connect returned after close") {
		t.Fatal(r.log)
	}
	counts := map[string]int{"ws_sessions": 1, "ws_connecting": 1, "ws_msgs_sent": 5, "ws_msgs_received": 3, "ws_ping": 1, "ws_session_duration": 1, "data_sent": 1, "data_received": 1}
	for name, want := range counts {
		got := r.of(name)
		if len(got) != want {
			t.Errorf("%s: %d samples, want %d", name, len(got), want)
			continue
		}
		if tags := got[0].Tags; tags["status"] != "101" || tags["k6test"] != "yes" || tags["url"] != strings.TrimSuffix(tags["url"], "/")+"/" {
			t.Errorf("%s tags: %v", name, tags)
		}
	}
}

func TestSocketTimersRunWhileOpen(t *testing.T) {
	mustRun(t, `
export default function () {
  const ticks = [];
  ws.connect(__ENV.WS, null, (socket) => {
    socket.setInterval(() => {
      ticks.push('tick');
      if (ticks.length === 3) socket.close();
    }, 1);
    socket.setTimeout(() => ticks.push('never: the socket closes first'), 60000);
    socket.on('close', (code) => ticks.push('close:' + code));
  });
  eq(ticks, ['tick', 'tick', 'tick', 'close:1000'], 'ticks');
}`)
}

func TestServerCloseWithAnotherCodeIsAnError(t *testing.T) {
	mustRun(t, `
export default function () {
  const events = [];
  const res = ws.connect(__ENV.WS, (socket) => {
    socket.on('open', () => socket.send('close:4001:bye'));
    socket.on('error', (e) => events.push('error:' + e.error()));
    socket.on('close', (code) => events.push('close:' + code));
  });
  eq(events, ['error:websocket: close 4001: bye', 'close:4001'], 'events');
  eq(res.error, 'websocket: close 4001: bye', 'response error');
}`)
}

func TestFailuresAreResponsesWithAnError(t *testing.T) {
	mustRun(t, `
export default function () {
  let called = false;
  const refused = ws.connect('ws://127.0.0.1:1/', () => { called = true; });
  eq([refused.status, refused.error.includes('refused'), called], [0, true, false], 'refused');
  const rejected = ws.connect(__ENV.WS + '/reject', () => { called = true; });
  eq([rejected.status, rejected.error.includes('403'), rejected.body.includes('go away'), called], [403, true, true, false], 'rejected');
  const events = [];
  const big = ws.connect(__ENV.WS, { maxMessageSize: 100 }, (socket) => {
    socket.on('open', () => socket.send('big:101'));
    socket.on('error', (e) => events.push(e.error().includes('more than 100 bytes')));
    socket.on('close', (code) => events.push(code));
  });
  eq(events, [true, 1009], 'over the limit');
  const huge = ws.connect(__ENV.WS + '/hugehead', () => { called = true; });
  eq([huge.status, huge.error, called], [0, 'websocket: handshake: response too large: more than 10 MiB (maxHeaderSize)', false], 'huge head');
}`)
}

func TestBadArgumentsThrow(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"no callback", "ws.connect(__ENV.WS)", "wrong number of arguments"},
		{"not ws", "ws.connect('http://x/', () => {})", "invalid URL"},
		{"unknown param", "ws.connect(__ENV.WS, { nosuch: 1 }, () => {})", "params.nosuch"},
		{"sendBinary of a string", "ws.connect(__ENV.WS, (s) => s.sendBinary('x'))", "want an ArrayBuffer"},
		{"exception in a handler", "ws.connect(__ENV.WS, (s) => s.on('open', () => { throw new Error('boom'); }))", "boom"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, "export default function () { "+tc.src+" }")
			if r.err == nil || !strings.Contains(r.err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", r.err, tc.want)
			}
		})
	}
}

func TestAnInterruptedIterationReturnsFromConnect(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		done <- runCtx(ctx, t, `
export default function () {
  ws.connect(__ENV.WS, (socket) => socket.on('close', () => console.log('close dispatched')));
}`, cancel)
	}()
	select {
	case r := <-done:
		if r.err == nil || strings.Contains(r.log, "close dispatched") {
			t.Fatalf("err %v, log %q", r.err, r.log)
		}
		if n := len(r.of("ws_session_duration")); n != 1 {
			t.Fatalf("the cut session has %d ws_session_duration samples, want 1", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("connect did not return when the iteration's context ended")
	}
}

func TestTheThrowOptionMakesAFailedHandshakeThrow(t *testing.T) {
	r := runWith(t, "export default function () { ws.connect('ws://127.0.0.1:1/', () => {}); }", map[string]any{"throw": true})
	if r.err == nil || !strings.Contains(r.err.Error(), "refused") {
		t.Fatalf("err %v", r.err)
	}
}

func TestConnectSendsTheJarsCookies(t *testing.T) {
	mustRun(t, `
import http from 'k6/http';
export default function () {
  const jar = new http.CookieJar();
  jar.set(__ENV.WS.replace('ws://', 'http://') + '/', 'session', 'abc');
  let cookie = null;
  const res = ws.connect(__ENV.WS, { jar }, (socket) => {
    socket.on('open', () => socket.send('headers'));
    socket.on('message', (m) => { cookie = JSON.parse(m)['Cookie']; socket.close(); });
  });
  eq([res.status, cookie], [101, ['session=abc']], 'the jar param');
}`)
}
