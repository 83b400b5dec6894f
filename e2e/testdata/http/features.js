// k6/http's options and bodies together, through the binary: the hosts
// option sends api.test to the local server (PORT), which answers gzip,
// takes a multipart upload, demands digest authentication and names items
// by template; blocked.test is refused by blockHostnames.
import http from 'k6/http';
import { check } from 'k6';

export const options = {
  iterations: 2,
  hosts: { 'api.test': `127.0.0.1:${__ENV.PORT}` },
  blockHostnames: ['*.blocked.test'],
  userAgent: 'features-test/1.0',
  thresholds: {
    checks: ['rate==1'],
    'http_reqs{name:http://api.test/items/${}}': ['count==4'],
    'http_reqs{error_code:1111}': ['count==2'],
  },
};

export default function () {
  const gz = http.get('http://api.test/gzip');
  check(gz, {
    'gzip decoded': (r) => r.body === 'compressed '.repeat(100),
    'user agent': (r) => r.headers['X-Seen-User-Agent'] === 'features-test/1.0',
  });
  const up = http.post('http://api.test/upload', {
    file: http.file('file contents', 'notes.txt', 'text/plain'),
    note: 'hi',
  }, { compression: 'gzip' });
  check(up, { 'multipart received': (r) => r.body === 'notes.txt text/plain file contents hi' });
  for (const id of [1, 2]) {
    check(http.get(http.url`http://api.test/items/${id}`), { 'item': (r) => r.body === `item ${id}` });
  }
  const dg = http.get('http://ada:s3cret@api.test/digest', { auth: 'digest' });
  check(dg, { 'digest': (r) => r.status === 200 && r.body === 'hello ada' });
  check(http.get('http://x.blocked.test/'), { 'blocked': (r) => r.error_code === 1111 });
}
