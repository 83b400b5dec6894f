// The web APIs k6 scripts lean on: timers (global and from k6/timers),
// TextEncoder/TextDecoder, URL/URLSearchParams and structuredClone. Every
// check must pass; the ones in timer callbacks count only if the iteration
// waited for its timers.
import { check } from 'k6';
import { setTimeout as kSetTimeout, clearInterval as kClearInterval } from 'k6/timers';

export const options = {
  iterations: 3,
  thresholds: { checks: ['rate==1'] },
};

const startedInInit = [];
setTimeout(() => startedInInit.push('init timer'), 0);

export default async function () {
  const order = [];
  setTimeout(() => order.push('timeout'), 0);
  await Promise.resolve();
  order.push('microtask');
  const ticks = await new Promise((resolve) => {
    let n = 0;
    const id = setInterval(() => {
      n++;
      if (n === 3) {
        kClearInterval(id); // an id from the global setInterval
        resolve(n);
      }
    }, 1);
  });
  const cleared = setTimeout(() => order.push('cleared'), 0);
  clearTimeout(cleared);
  kSetTimeout(() => {
    check(order, { 'timers ran after the microtask, cleared ones never': (o) => o.join() === 'microtask,timeout' });
  }, 5);

  const bytes = new TextEncoder().encode('héllo €');
  const url = new URL('../api/items?page=2#top', 'https://user:secret@Example.com:8443/v1/x/');
  url.searchParams.append('q', 'a b&c');
  const params = new URLSearchParams({ b: '2', a: '1' });
  params.sort();
  const copy = structuredClone({ nested: { list: [1, 2] } });

  check(null, {
    'init timers ran before the first iteration': () => startedInInit.join() === 'init timer',
    'setInterval fired three times': () => ticks === 3,
    'TextEncoder is UTF-8': () => bytes.length === 10 && bytes[1] === 0xc3,
    'TextDecoder round-trips': () => new TextDecoder().decode(bytes) === 'héllo €',
    'fatal TextDecoder throws on bad bytes': () => {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xff]));
        return false;
      } catch (e) {
        return e instanceof TypeError;
      }
    },
    'URL resolves and normalises': () =>
      url.href === 'https://user:secret@example.com:8443/v1/api/items?page=2&q=a+b%26c#top' &&
      url.origin === 'https://example.com:8443' && url.pathname === '/v1/api/items',
    'URLSearchParams sorts and serialises': () => params.toString() === 'a=1&b=2',
    'structuredClone copies deeply': () => copy.nested.list[1] === 2,
  });
}
