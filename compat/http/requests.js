// compat: k6/http — verbs, bodies (string, object as form), params headers and tags, the response's fields and json(), batch, redirects as hops, cookies through the VU's jar
import { check } from 'k6';
import http from 'k6/http';

const ECHO = __ENV.ECHO;

export const options = {
  iterations: 1,
  thresholds: {
    checks: ['rate==1'],
    // 1 get + 1 post + 1 put + 1 del + 2 batch + 3 redirect hops + 2 cookie hops + 1 tagged + 1 404
    http_reqs: ['count==13'],
    'http_reqs{name:tagged}': ['count==1'],
    'http_reqs{status:404}': ['count==1'],
    http_req_failed: ['rate>0.07', 'rate<0.08'],
  },
};

export default function () {
  const get = http.get(`${ECHO}/anything?x=1`, { headers: { 'X-Custom': 'v' } });
  check(get, {
    'status 200': (r) => r.status === 200,
    'status_text': (r) => r.status_text === '200 OK',
    'json() selects a field': (r) => r.json('args.x') === '1',
    'request headers sent': (r) => r.json('headers.X-Custom') === 'v',
    'response headers are canonical': (r) => r.headers['Content-Type'] === 'application/json',
    'timings are numbers': (r) => ['blocked', 'connecting', 'tls_handshaking', 'sending', 'waiting', 'receiving', 'duration']
      .every((k) => typeof r.timings[k] === 'number' && r.timings[k] >= 0),
    'proto': (r) => r.proto === 'HTTP/1.1',
    'request method': (r) => r.request.method === 'GET',
    'remote ip': (r) => r.remote_ip === '127.0.0.1',
  });
  const post = http.post(`${ECHO}/anything`, { user: 'ada', n: 2 });
  check(post, {
    'object body is form-encoded': (r) => r.json('form.user') === 'ada' && r.json('form.n') === '2',
    'form content type': (r) => r.json('headers.Content-Type') === 'application/x-www-form-urlencoded',
  });
  check(http.put(`${ECHO}/anything`, 'raw text'), { 'string body as is': (r) => r.json('data') === 'raw text' && r.json('method') === 'PUT' });
  check(http.del(`${ECHO}/anything`), { 'del is DELETE': (r) => r.json('method') === 'DELETE' });
  const [a, b] = http.batch([
    ['GET', `${ECHO}/anything?i=a`],
    { method: 'POST', url: `${ECHO}/anything`, body: 'b' },
  ]);
  check(null, { 'batch keeps the order': () => a.json('args.i') === 'a' && b.json('data') === 'b' });
  const redirected = http.get(`${ECHO}/redirect/2`);
  check(redirected, { 'redirects are followed to the end': (r) => r.status === 200 && r.url === `${ECHO}/anything` });
  const cookies = http.get(`${ECHO}/cookies/set?flavour=oat`);
  check(cookies, { 'the jar keeps cookies across redirects': (r) => r.json('cookies.flavour') === 'oat' });
  http.get(`${ECHO}/anything`, { tags: { name: 'tagged' } });
  check(http.get(`${ECHO}/status/404`), { '404 is a response, not an exception': (r) => r.status === 404 });
}
