// Each iteration of the whole test adds its number in the test to a
// Trend and 1 to a Counter, so the samples of a run are known exactly and
// segmented runs partition them (three shares get 0,3,6,…, 1,4,7,… and
// 2,5,8,…). GATE picks the thresholds: "whole" ones that pass only on the
// whole test, "share" ones that pass only on a share; every gate has one on
// a submetric, which always passes.
import exec from 'k6/execution';
import { check, group } from 'k6';
import { Counter, Gauge, Rate, Trend } from 'k6/metrics';

const iit = new Trend('iit');
const done = new Counter('done');
const even = new Rate('even');
const last = new Gauge('last');

const N = 60;
const sub = { 'iit{parity:even}': ['min>=0'] };
const gates = {
  whole: { ...sub, done: ['count==60'], iit: ['min==0', 'max==59', 'p(50)==29.5'] },
  share: { ...sub, done: ['count<60'] },
  loose: sub,
};

export const options = {
  scenarios: {
    numbers: { executor: 'shared-iterations', vus: 3, iterations: N, maxDuration: '20s' },
  },
  thresholds: gates[__ENV.GATE || 'loose'],
};

export default function () {
  const n = exec.scenario.iterationInTest;
  iit.add(n, { parity: n % 2 === 0 ? 'even' : 'odd' });
  done.add(1);
  even.add(n % 2 === 0);
  last.add(n);
  group('numbers', () => {
    check(n, { 'is below 60': (v) => v < 60, 'is even': (v) => v % 2 === 0 });
  });
}
