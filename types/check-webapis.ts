// Compiles the k6/timers and web-global declarations against typical uses.
import { setTimeout as kSetTimeout, clearInterval as kClearInterval } from 'k6/timers';
import timers from 'k6/timers';

export async function webapis(): Promise<string> {
  const id: number = setTimeout((a: string, b: number) => void (a + b), 10, 'x', 1);
  clearTimeout(id);
  const every = setInterval(() => {}, 100);
  kClearInterval(every);
  timers.clearTimeout(kSetTimeout(() => {}));
  await new Promise<void>((resolve) => setTimeout(resolve, 5));

  const bytes: Uint8Array = new TextEncoder().encode('é');
  const { written } = new TextEncoder().encodeInto('a', new Uint8Array(4));
  const text: string = new TextDecoder('utf-8', { fatal: true }).decode(bytes.buffer) + written;

  const url = new URL('/p?a=1', 'https://example.com');
  url.searchParams.append('b', '2');
  const params = new URLSearchParams([['a', '1']]);
  for (const [k, v] of params) url.searchParams.set(k, v);
  const copy: { n: number[] } = structuredClone({ n: [1] });
  return text + url.href + params.get('a') + copy.n.length + URL.canParse(url);
}
