// compat: k6/ws — ws.connect(url, params, callback) blocks until the socket closes: open, message and binaryMessage in order, ping/pong, setTimeout/setInterval while open, close(code); the response has status 101; a refused connection is a response with an error; ws_* metrics with the params' tags
import { check } from 'k6';
import ws from 'k6/ws';

export const options = {
  iterations: 1,
  thresholds: {
    checks: ['rate==1'],
    ws_sessions: ['count==1'],
    'ws_msgs_received{k6test:yes}': ['count==2'],
    'ws_msgs_sent{k6test:yes}': ['count==2'],
    ws_ping: ['max>0'],
    ws_session_duration: ['max>0'],
  },
};

const url = __ENV.ECHO.replace(/^http/, 'ws') + '/ws/';

export default function () {
  const got = [];
  const res = ws.connect(url, { tags: { k6test: 'yes' } }, (socket) => {
    socket.on('open', () => {
      socket.send('hello');
      socket.sendBinary(new Uint8Array([1, 2, 3]).buffer);
      socket.ping();
    });
    socket.on('message', (m) => got.push(m));
    socket.on('binaryMessage', (b) => got.push(b.byteLength));
    socket.on('pong', () => got.push('pong'));
    let ticks = 0;
    socket.setInterval(() => {
      ticks++;
      if (ticks === 3) socket.close(1000);
    }, 5);
    socket.on('close', (code) => got.push('close:' + code));
  });
  check(res, {
    'status 101': (r) => r.status === 101,
    'no error': (r) => r.error === '',
    'connect returned after close, events in order': () =>
      JSON.stringify(got.filter((x) => x !== 'pong')) === JSON.stringify(['hello', 3, 'close:1000']) && got.includes('pong'),
  });
  const refused = ws.connect('ws://127.0.0.1:1/', () => {});
  check(refused, { 'a refused connection is a response with an error': (r) => r.status === 0 && r.error !== '' });
}
