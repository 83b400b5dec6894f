// Prompts from a CSV file (a header line, then bucket,tenant,question),
// read once per run with k6/experimental/fs and parsed once by
// k6/experimental/csv into rows every VU shares; each iteration takes the
// next prompt.
//
//   usefullatency run --mock examples/dataset-csv.js
import usefulsse from 'k6/x/usefulsse';
import { open } from 'k6/experimental/fs';
import csv from 'k6/experimental/csv';
import exec from 'k6/execution';
import { check } from 'k6';

const base = __ENV.SUT_URL || 'http://127.0.0.1:8099';
const prompts = await csv.parse(await open('./data/prompts.csv'), { asObjects: true });

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
