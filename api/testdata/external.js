// The test behind the externally-controlled REST API tests: one VU of two
// active until scaled, until stopped; MIXED adds a constant-vus scenario,
// which cannot be paused. Iterations count in by_vu, tagged with the VU, and
// thresholds make a sub-metric of each of the first four VUs.
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';
import { sleep } from 'k6';

const byVU = new Counter('by_vu');

const scenarios = { ext: { executor: 'externally-controlled', vus: 1, maxVUs: 2, duration: '0' } };
if (__ENV.MIXED) {
  scenarios.steady = { executor: 'constant-vus', vus: 1, duration: '1m' };
}

// A sub-metric per VU, which the REST API shows once it has samples.
export const options = {
  scenarios,
  thresholds: Object.fromEntries([1, 2, 3, 4].map((vu) => [`by_vu{vu:${vu}}`, ['count>=0']])),
};

export default function () {
  byVU.add(1, { vu: String(exec.vu.idInTest) });
  sleep(0.01);
}
