// The test behind the REST API tests: four iterations (or DURATION of
// them) with a group, a check, a trend, a rate and a gauge; iterations
// whose setup data carries WANT_TOKEN are counted in token_seen, and
// teardown counts itself in teardowns.
import { check, group, sleep } from 'k6';
import { Counter, Gauge, Rate, Trend } from 'k6/metrics';

const tokenSeen = new Counter('token_seen');
const teardowns = new Counter('teardowns');
const wait = new Trend('wait_time', true);
const ok = new Rate('ok_rate');
const level = new Gauge('level');

export const options = {
  scenarios: __ENV.DURATION
    ? { main: { executor: 'constant-vus', vus: 2, duration: __ENV.DURATION } }
    : { main: { executor: 'shared-iterations', vus: 2, iterations: 4 } },
  thresholds: { ok_rate: ['rate==1'] },
};

export function setup() { return { token: 'from-setup' }; }

export default function (data) {
  if (data && data.token === __ENV.WANT_TOKEN) {
    tokenSeen.add(1);
  }
  group('visit', () => {
    check(1, { 'one is one': (v) => v === 1 });
  });
  wait.add(10);
  ok.add(true);
  level.add(3);
  sleep(0.01);
}

export function teardown() { teardowns.add(1); }
