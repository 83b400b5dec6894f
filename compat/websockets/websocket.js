// compat: k6/websockets — new WebSocket(url, protocols, params) runs on the VU's event loop: open, text and ArrayBuffer messages in order, ping/pong, close codes both ways, a refused connection is an error then a close 1006; the iteration waits for every close; ws_* metrics with the params' tags
import { check } from 'k6';
import { WebSocket } from 'k6/websockets';

export const options = {
  iterations: 1,
  thresholds: {
    checks: ['rate==1'],
    ws_sessions: ['count==2'],
    'ws_msgs_received{k6test:yes}': ['count==2'],
    'ws_msgs_sent{k6test:yes}': ['count==2'],
    ws_ping: ['max>0'],
    ws_connecting: ['max>0', 'p(95)<5000'],
    ws_session_duration: ['max>0'],
    data_received: ['count>0'],
  },
};

const url = __ENV.ECHO.replace(/^http/, 'ws') + '/ws/';

export default function () {
  const ws = new WebSocket(url, 'chat', { tags: { k6test: 'yes' } });
  check(ws, { 'CONNECTING until the handshake ends': (w) => w.readyState === WebSocket.CONNECTING });
  ws.binaryType = 'arraybuffer';
  const got = [];
  ws.onopen = () => {
    check(ws, { 'OPEN in onopen, subprotocol chosen': (w) => w.readyState === WebSocket.OPEN && w.protocol === 'chat' });
    ws.send('hello');
    ws.send(new Uint8Array([1, 2, 3]).buffer);
    ws.ping();
  };
  ws.onmessage = (e) => got.push(typeof e.data === 'string' ? e.data : new Uint8Array(e.data).length);
  ws.onpong = () => {
    got.push('pong');
    ws.close(4000, 'done');
  };
  ws.onclose = (e) => {
    check(e, {
      'messages in order, then the pong': () => JSON.stringify(got) === JSON.stringify(['hello', 3, 'pong']),
      'our close code comes back, cleanly': (ev) => ev.code === 4000 && ev.wasClean === true,
      'CLOSED in onclose': () => ws.readyState === WebSocket.CLOSED,
    });
  };

  const byServer = new WebSocket(url);
  byServer.onopen = () => byServer.send('close:4001:bye');
  byServer.onclose = (e) => check(e, { "the server's close code and reason": (ev) => ev.code === 4001 && ev.reason === 'bye' });

  const refused = new WebSocket('ws://127.0.0.1:1/');
  const events = [];
  refused.onerror = (e) => events.push('error');
  refused.onclose = (e) => {
    events.push('close:' + e.code);
    check(events, { 'a refused connection is an error, then a close 1006': (ev) => ev.join() === 'error,close:1006' });
  };
}
