// compat: web APIs — TextEncoder/TextDecoder, URL, URLSearchParams, structuredClone and crypto.getRandomValues/randomUUID as k6 scripts use them
import { check } from 'k6';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

export default function () {
  const url = new URL('https://example.com:8443/a/b?x=1&y=two#frag');
  const params = new URLSearchParams({ q: 'a b', n: '1' });
  params.append('n', '2');
  const original = { a: [1, { b: 2 }], d: new Date(0) };
  const copy = structuredClone(original);
  const random = crypto.getRandomValues(new Uint8Array(16));
  check(null, {
    'TextEncoder encodes UTF-8': () => new TextEncoder().encode('é€').length === 5,
    'TextDecoder decodes UTF-8': () => new TextDecoder().decode(new Uint8Array([0xc3, 0xa9])) === 'é',
    'URL parts': () => url.hostname === 'example.com' && url.port === '8443' && url.pathname === '/a/b' && url.hash === '#frag',
    'URL searchParams': () => url.searchParams.get('y') === 'two',
    'URLSearchParams encodes': () => params.toString() === 'q=a+b&n=1&n=2',
    'URLSearchParams getAll': () => params.getAll('n').join() === '1,2',
    'structuredClone deep-copies': () => copy.a[1].b === 2 && copy.a !== original.a && copy.d.getTime() === 0,
    'getRandomValues fills in place': () => random.length === 16,
    'randomUUID is a v4 UUID': () => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()),
  });
}
