// One VU of four loops until the test is scaled over the REST API
// (usefullatency scale); each iteration counts itself under its VU's id,
// and the thresholds put the first four VUs' counts in the summary export.
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';
import { sleep } from 'k6';

const byVU = new Counter('iterations_by_vu');

export const options = {
  scenarios: {
    ext: { executor: 'externally-controlled', vus: 1, maxVUs: 4, duration: '10s' },
  },
  thresholds: Object.fromEntries([1, 2, 3, 4].map((vu) => [`iterations_by_vu{vu:${vu}}`, ['count>=0']])),
};

export default function () {
  byVU.add(1, { vu: String(exec.vu.idInTest) });
  sleep(0.05);
}
