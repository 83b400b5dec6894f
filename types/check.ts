// Compiles the declarations against typical uses; `make test` runs tsc on it.
import usefulsse, { Result, WatchResult, request, requestAsync } from 'k6/x/usefulsse';
import sse from 'k6/x/sse';
import http, { Response, expectedStatuses } from 'k6/http';

const r: Result = usefulsse.post('http://127.0.0.1:8099/chat', { bucket: 'qa', question: 'refund?' }, {
  dialect: 'business',
  tags: { bucket: 'qa' },
  timeout: '30s',
  useful: { fields: ['decision', 'reason', 'next_step'] },
  marks: {
    fallback: { field: 'handoff', equals: true },
    json: { jsonFields: ['decision'] },
    either: { any: [{ text: 'refund' }, { event: 'tool' }] },
    custom: (ctx) => ctx.text.length > 10 && ctx.elapsed_ms < 5000,
  },
  onEvent: (ev) => { if (ev.kind === 'error') console.log(ev.data); },
  pricing: { inputPer1M: 0.5, outputPer1M: 1.5 },
  maxEventSize: '2MiB',
  slo: { useful: '2.5s', first_text: 800 },
});
const useful: number | null = r.timings.useful;
const good: boolean | null = r.good;
const fallback: number | null = r.marks['fallback'];
const tokens: number = r.usage.output_tokens + r.usage.input_tokens;

export async function streams(): Promise<number> {
  const [a, b] = await Promise.all([
    requestAsync('POST', 'http://127.0.0.1:8099/v1/chat/completions', '{}', { dialect: 'openai' }),
    requestAsync('POST', 'http://127.0.0.1:8099/v1/messages', new ArrayBuffer(2), { dialect: 'anthropic' }),
  ]);
  return (a.timings.first_text ?? 0) + (b.timings.first_text ?? 0) + request('GET', 'http://x').events;
}

const res = sse.open('http://127.0.0.1:8099/chat', { method: 'POST', body: '{}', headers: {}, tags: { a: 'b' } }, (client) => {
  client.on('open', () => {});
  client.on('event', (e) => { if (e.id === '4') client.close(); });
  client.on('error', (e) => console.log(e.error()));
});
const status: number = res.status + (useful ?? 0) + (fallback ?? 0) + tokens;
export { status };

http.setResponseCallback(expectedStatuses(200, { min: 300, max: 399 }));
const login: Response = http.post('http://127.0.0.1:8099/login', { user: 'a', pass: 'b' }, {
  headers: { Accept: 'application/json' }, tags: { name: 'login' }, timeout: '10s', redirects: 0,
  responseCallback: null,
});
const token: string = login.json('token');
const got = http.get('http://127.0.0.1:8099/bytes', { responseType: 'binary' });
const size: number = (got.body as ArrayBuffer).byteLength + got.timings.waiting + login.error_code;
const pair = http.batch(['http://a/', ['POST', 'http://b/', '{}', { timeout: 100 }], { url: 'http://c/' }]);
const named = http.batch({ home: 'http://a/', api: { method: 'GET', url: 'http://b/' } });
const jar = http.cookieJar();
jar.set('http://a/', 'session', 'x', { path: '/', http_only: true, max_age: 60 });
const mine = new http.CookieJar();
const upload: Response = http.post('http://a/upload', { file: http.file('x', 'a.txt', 'text/plain'), note: 'n' }, {
  compression: 'gzip, br', auth: 'digest',
});
const item = http.url`http://a/items/${upload.status}`;
const itemName: string = item.name;
const items = http.batch([item, 'http://a/']);
const byTemplate: Response = http.get(item);
const withCookies = http.get('http://a/', { cookies: { a: 'b', s: { value: 'y', replace: true } }, jar: mine });
const sessions: string[] = jar.cookiesForURL('http://a/')['session'];
const setBy: number = (withCookies.cookies['id']?.[0]?.expires ?? 0) + sessions.length;
export { setBy };
export async function httpAsync(): Promise<number> {
  const r = await http.asyncRequest('GET', 'http://a/');
  return r.status + pair[0].status + named.home.status + named.api.timings.duration + size + token.length;
}

declare const console: { log(...args: unknown[]): void };

export async function screen(page: unknown): Promise<number | null> {
  const w: WatchResult = await usefulsse.watch(page, '.answer', {
    action: () => Promise.resolve(),
    useful: { fields: ['decision'] },
    done: '[data-done]',
    state: 'script[type="application/json"]',
    quiet: '1s',
    tags: { bucket: 'qa' },
  });
  return w.error_code === '' ? w.timings.useful : null;
}
