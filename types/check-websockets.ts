// Compiles the WebSocket declarations against typical uses.
import { WebSocket, Blob } from 'k6/websockets';
import { WebSocket as OldWebSocket } from 'k6/experimental/websockets';
import ws, { Response } from 'k6/ws';

const seen: unknown[] = [];

const socket = new WebSocket('ws://127.0.0.1:8099/ws', 'chat', { headers: { Authorization: 'Bearer x' }, tags: { k6test: 'yes' } });
socket.binaryType = 'arraybuffer';
socket.onopen = () => {
  socket.send('hello');
  socket.send(new Uint8Array([1, 2]));
  socket.send(new Blob(['a', new Uint8Array([98])], { type: 'text/plain' }));
  socket.ping();
};
socket.addEventListener('message', (e) => {
  if (typeof e.data === 'string') seen.push(e.data.length);
});
socket.onclose = (e) => seen.push(e.code, e.reason, e.wasClean, socket.readyState === WebSocket.CLOSED);
socket.onerror = (e) => seen.push(e.error);
const old: OldWebSocket = new OldWebSocket('ws://127.0.0.1:8099/ws');
old.close(4000, 'bye');

const res: Response = ws.connect('ws://127.0.0.1:8099/ws', { tags: { a: 1 } }, (s) => {
  s.on('open', () => s.send('x'));
  s.on('message', (m) => seen.push(m.toUpperCase()));
  s.on('binaryMessage', (b) => seen.push(b.byteLength));
  s.on('close', (code) => seen.push(code + 1));
  s.on('error', (e) => seen.push(e.error()));
  s.setTimeout(() => s.close(), 1000);
  s.setInterval(() => s.ping(), 100);
});
seen.push(res.status, res.error);
