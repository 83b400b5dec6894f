package k6http_test

import (
	"testing"
)

func TestMethodsAndBodies(t *testing.T) {
	srv := newServer(t)
	mustRun(t, `export default function () {
  const u = __ENV.BASE + '/echo';
  for (const [fn, method] of [[http.get, 'GET'], [http.head, 'HEAD']]) {
    const r = fn(u);
    eq(r.status, 200, method + ' status');
    eq(r.request.method, method, method + ' request.method');
  }
  eq(http.get(u).json('method'), 'GET', 'get method seen by server');
  eq(http.head(u).body, '', 'head body');
  for (const [fn, method] of [[http.post, 'POST'], [http.put, 'PUT'], [http.patch, 'PATCH'], [http.del, 'DELETE'], [http.options, 'OPTIONS']]) {
    const r = fn(u, 'text body');
    eq(r.json('method'), method, method + ' method');
    eq(r.json('body'), 'text body', method + ' body');
    eq(r.request.body, 'text body', method + ' request.body');
  }
  let r = http.request('PURGE', u, null);
  eq(r.json('method'), 'PURGE', 'request() method');
  eq(r.json('body'), '', 'null body');
  r = http.post(u, {b: 'two words', a: ['1', '2']});
  eq(r.json('body'), 'a=1&a=2&b=two+words', 'form body');
  eq(r.json('headers.Content-Type.0'), 'application/x-www-form-urlencoded', 'form content type');
  r = http.post(u, {x: 'y'}, {headers: {'Content-Type': 'text/plain'}});
  eq(r.json('headers.Content-Type.0'), 'text/plain', 'content type kept');
  r = http.post(u, new Uint8Array([104, 105]).buffer);
  eq(r.json('body'), 'hi', 'ArrayBuffer body');
  r = http.post(u, new Uint8Array([0, 104, 105, 0]).subarray(1, 3));
  eq(r.json('body'), 'hi', 'typed array body');
  r = http.post(u, undefined);
  eq(r.json('body'), '', 'undefined body');
  r = http.get(u + '?q=1', {headers: {'X-Test': 'yes'}});
  eq(r.json('headers.X-Test.0'), 'yes', 'request header sent');
  eq(r.request.headers['X-Test'], ['yes'], 'request.headers');
  eq([r.json('headers.User-Agent.0'), r.request.headers['User-Agent']], ['usefullatency', ['usefullatency']], 'default User-Agent');
  eq(http.get(u, {headers: {'User-Agent': 'mine'}}).json('headers.User-Agent.0'), 'mine', 'User-Agent param');
  eq(r.json('query'), 'q=1', 'query string');
  r = http.get(__ENV.BASE.replace('http://', 'http://user:pa%20ss@') + '/echo');
  eq(r.json('headers.Authorization.0'), 'Basic ' + 'dXNlcjpwYSBzcw==', 'basic auth from the URL');
  eq(r.url, u, 'credentials are not in the URL sent');
}`, map[string]string{"BASE": srv.URL})
}

// A response is built on first read of each field, yet behaves as a plain
// object: every field is an own, enumerable property in a stable order, a
// field read twice is the same object, JSON.stringify and spreading see
// every field, and scripts may set, add and delete properties.
func TestResponseIsAPlainObject(t *testing.T) {
	srv := newServer(t)
	mustRun(t, `export default function () {
  const r = http.get(__ENV.BASE + '/json');
  eq(Object.keys(r), ['status', 'status_text', 'proto', 'url', 'headers', 'body', 'cookies', 'error', 'error_code',
    'remote_ip', 'remote_port', 'tls_version', 'tls_cipher_suite', 'ocsp', 'timings', 'request'], 'keys');
  if (r.headers !== r.headers || r.timings !== r.timings) throw new Error('a field read twice is a new object');
  if (!r.hasOwnProperty('timings') || !('status' in r)) throw new Error('fields are not own properties');
  const copy = JSON.parse(JSON.stringify(r));
  eq(copy.status, 200, 'stringified status');
  eq(typeof copy.timings.duration, 'number', 'stringified timings');
  eq(copy.request.method, 'GET', 'stringified request');
  eq({...r}.status, 200, 'spread');
  eq(typeof r.json(), 'object', 'json() still inherited');
  r.status = 599;
  r.mine = 'x';
  delete r.body;
  eq([r.status, r.mine, r.body, 'body' in r], [599, 'x', undefined, false], 'set, add, delete');
  eq(Object.keys(r).slice(-2), ['request', 'mine'], 'an added key comes last');
  const s = http.get(__ENV.BASE + '/json');
  eq(s.status, 200, 'another response is untouched');
}`, map[string]string{"BASE": srv.URL})
}

func TestResponseFields(t *testing.T) {
	srv := newServer(t)
	mustRun(t, `export default function () {
  let r = http.get(__ENV.BASE + '/multi');
  eq(r.status, 200, 'status');
  eq(r.status_text, '200 OK', 'status_text');
  eq(r.proto, 'HTTP/1.1', 'proto');
  eq(r.headers['X-Multi'], 'a, b', 'repeated header joined, canonical name');
  eq(r.headers['Content-Length'], '2', 'content-length');
  eq(r.url, __ENV.BASE + '/multi', 'url');
  eq(r.error, '', 'error');
  eq(r.error_code, 0, 'error_code');
  eq(r.remote_ip, '127.0.0.1', 'remote_ip');
  eq(String(r.remote_port), __ENV.BASE.split(':')[2], 'remote_port');
  eq(r.tls_version, '', 'tls_version without TLS');
  for (const k of ['blocked', 'connecting', 'tls_handshaking', 'sending', 'waiting', 'receiving', 'duration']) {
    if (typeof r.timings[k] !== 'number' || r.timings[k] < 0) throw new Error('timings.' + k + ' = ' + r.timings[k]);
  }
  const t = r.timings;
  if (Math.abs(t.duration - (t.sending + t.waiting + t.receiving)) > 1e-6) throw new Error('duration is not the sum');
  if (t.connecting <= 0) throw new Error('first request must connect: ' + JSON.stringify(t));
  r = http.get(__ENV.BASE + '/multi');
  eq(r.timings.connecting, 0, 'second request reuses the connection');
  r = http.get(__ENV.BASE + '/status/404');
  eq([r.status, r.error_code, r.error], [404, 1404, ''], '404');
  r = http.get(__ENV.BASE + '/status/503');
  eq(r.error_code, 1503, '503 error_code');
}`, map[string]string{"BASE": srv.URL})
}
