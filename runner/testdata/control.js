// A short test for the Control: setup's data reaches every iteration
// (counted by setup_seen), teardown counts itself, and DURATION turns the
// four iterations into a run that lasts until it is stopped.
import { Counter } from 'k6/metrics';
import { sleep } from 'k6';

const seen = new Counter('setup_seen');
const teardowns = new Counter('teardowns');

export const options = __ENV.DURATION
  ? { vus: 2, duration: __ENV.DURATION }
  : { vus: 2, iterations: 4 };

export function setup() { return { token: 'from-setup' }; }

export default function (data) {
  if (data && data.token) {
    seen.add(1, { token: data.token });
  }
  sleep(0.01);
}

export function teardown(data) { teardowns.add(1, { token: data ? data.token : 'none' }); }
