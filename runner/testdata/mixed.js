import { check, group, sleep } from 'k6';
import { Counter } from 'k6/metrics';
import exec from 'k6/execution';

const hits = new Counter('hits');

export const options = {
  scenarios: {
    open: { executor: 'constant-arrival-rate', rate: 50, timeUnit: '1s', duration: '1s', preAllocatedVUs: 2, maxVUs: 4, tags: { kind: 'open' } },
    closed: { executor: 'constant-vus', vus: 2, duration: '1s', exec: 'closed', startTime: '200ms' },
    shared: { executor: 'shared-iterations', vus: 3, iterations: 12, exec: 'closed' },
  },
  thresholds: {
    'hits{kind:open}': ['count>=40'],
    checks: ['rate==1'],
  },
};

export function setup() { return { n: 1 }; }

export default function (data) {
  hits.add(data.n);
  check(exec.scenario.name, { 'scenario is open': (n) => n === 'open' });
}

export function closed() {
  group('g', () => { hits.add(1); sleep(0.02); });
}

export function teardown(data) { if (data.n !== 1) throw new Error('bad data'); }
