// An open-model test: iterations arrive at a fixed rate whether or not the
// system keeps up. When no VU is free an iteration is dropped and counted in
// dropped_iterations, and schedule_lag shows how late iterations started.
import { check, group, sleep } from 'k6';
import { Trend, Rate } from 'k6/metrics';
import exec from 'k6/execution';

const work = new Trend('work_time', true);
const fast = new Rate('fast_enough');

export const options = {
  scenarios: {
    steady: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE || 20),
      timeUnit: '1s',
      duration: __ENV.DURATION || '5s',
      preAllocatedVUs: 5,
      maxVUs: 20,
      tags: { bucket: 'qa' },
    },
  },
  thresholds: {
    'work_time{bucket:qa}': ['p(95)<500'],
    fast_enough: ['rate>0.9'],
    dropped_iterations: ['count<10'],
    schedule_lag: ['p(99)<50'],
  },
};

export default function () {
  group('answer', () => {
    const ms = 20 + (exec.scenario.iterationInTest % 5) * 10;
    sleep(ms / 1000);
    work.add(ms);
    fast.add(ms < 100);
    check(ms, { 'under 100 ms': (v) => v < 100 });
  });
}
