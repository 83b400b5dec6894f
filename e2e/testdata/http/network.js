// The run's network options through the binary: hosts, localIPs,
// blockHostnames and userAgent apply to k6/http and to the streaming probe,
// rps spaces k6/http's requests, httpDebug logs them.
import http from 'k6/http';
import usefulsse from 'k6/x/usefulsse';
import { check } from 'k6';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

export default function () {
  for (let i = 0; i < 5; i++) {
    const r = http.get('http://api.test/peer?api_key=hidden-k3y', { headers: { Authorization: 'Bearer hidden-t0ken' } });
    check(r, { 'k6/http: mapped host, local IP, user agent': (x) => x.body === 'e2e/1|127.0.0.2' });
  }
  const s = usefulsse.get('http://api.test/stream', { dialect: 'raw' });
  check(s, { 'probe: mapped host, local IP, user agent': (x) => x.error_code === '' && x.text === 'e2e/1|127.0.0.2' });
  const b = usefulsse.get('http://x.blocked.test/stream', { dialect: 'raw' });
  check(b, { 'probe: blocked host': (x) => x.error_code === 'blocked_host' });
  const h = http.get('http://x.blocked.test/peer');
  check(h, { 'k6/http: blocked host': (x) => x.error_code === 1111 });
}
