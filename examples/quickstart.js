// The smallest useful script: two VUs, ten shared iterations, one check.
import { check, sleep } from 'k6';

export const options = { vus: 2, iterations: 10, thresholds: { checks: ['rate==1'] } };

export function setup() {
  return { startedAt: Date.now() };
}

export default function (data) {
  check(data, { 'setup data arrived': (d) => d.startedAt > 0 });
  sleep(0.1);
}
