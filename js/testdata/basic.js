import { check, group, sleep } from 'k6';
import { Trend, Counter } from 'k6/metrics';
import exec from 'k6/execution';
import { SharedArray } from 'k6/data';
import { helper } from './lib/helper.js';

const t = new Trend('my_trend', true);
const c = new Counter('my_counter');
const data = new SharedArray('d', () => [{ q: 'a' }, { q: 'b' }]);
const txt = open('./lib/data.txt');

export const options = { vus: 2, iterations: 4, thresholds: { my_trend: ['p(95)<100'] } };

export function setup() { return { token: 'abc' }; }

export default async function (d) {
  group('g1', () => {
    check(1, { 'is one': (v) => v === 1, 'is two': (v) => v === 2 });
  });
  t.add(helper(10), { kind: 'x' });
  c.add(1);
  await Promise.resolve(1);
  if (d.token !== 'abc') throw new Error('bad setup data');
  if (data.length !== 2 || data[1].q !== 'b') throw new Error('bad shared array');
  if (txt.trim() !== 'hello') throw new Error('bad open');
  if (exec.vu.idInTest !== __VU) throw new Error('bad vu id');
}
