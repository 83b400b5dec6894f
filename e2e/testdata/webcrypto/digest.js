// crypto.subtle.digest of a UTF-8 string with each SHA, compared with
// known answers.
import { check } from 'k6';

export const options = { iterations: 2, thresholds: { checks: ['rate==1'] } };

const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

export default async function () {
  const data = new TextEncoder().encode('The quick brown fox jumps over the lazy dog');
  const sums = {};
  for (const name of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']) {
    sums[name] = hex(await crypto.subtle.digest(name, data));
  }
  check(sums, {
    'SHA-1': (s) => s['SHA-1'] === '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12',
    'SHA-256': (s) => s['SHA-256'] === 'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592',
    'SHA-384 and SHA-512 lengths': (s) => s['SHA-384'].length === 96 && s['SHA-512'].length === 128,
  });
}
