// Prompts from a JSON file, loaded once and shared read-only by every VU
// through SharedArray; each iteration takes the next prompt.
//
//   usefullatency run --mock examples/dataset.js
import usefulsse from 'k6/x/usefulsse';
import { SharedArray } from 'k6/data';
import exec from 'k6/execution';
import { check } from 'k6';

const base = __ENV.SUT_URL || 'http://127.0.0.1:8099';
const prompts = new SharedArray('prompts', () => JSON.parse(open('./data/prompts.json')));

export const options = {
  scenarios: {
    dataset: {
      executor: 'constant-arrival-rate', rate: 3, timeUnit: '1s', duration: __ENV.DURATION || '10s',
      preAllocatedVUs: 15, maxVUs: 40,
    },
  },
  thresholds: { 'usefulsse_useful{bucket:qa}': ['p(95)<2500'], checks: ['rate==1'] },
};

export default function () {
  const p = prompts[exec.scenario.iterationInTest % prompts.length];
  const res = usefulsse.post(`${base}/chat`, { bucket: p.bucket, tenant: p.tenant, question: p.question }, {
    dialect: 'business', tags: { bucket: p.bucket },
  });
  check(res, { 'useful answer': (r) => r.timings.useful !== null });
}
