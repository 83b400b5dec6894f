// Two buckets of the built-in assistant under open-loop load, each request
// pinned to a mock seed by its bucket and iteration, so two runs see the
// same server timings and differ only where a --mock-config changes them.
// Environment: SUT_URL (set by --mock), DURATION (default 3s), RATE
// (requests per second per bucket, default 20).
import usefulsse from 'k6/x/usefulsse';
import exec from 'k6/execution';

const duration = __ENV.DURATION || '3s';
const rate = Number(__ENV.RATE || 20);
const seeds = { qa: 1000000, retrieval: 2000000 };

const scenarios = {};
for (const bucket of Object.keys(seeds)) {
  scenarios[bucket] = {
    executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration,
    preAllocatedVUs: rate * 4, maxVUs: rate * 8, tags: { bucket },
  };
}

export const options = {
  scenarios,
  thresholds: { 'usefulsse_useful{bucket:qa}': ['p(95)<2500'] },
};

export default function () {
  const bucket = exec.scenario.name;
  usefulsse.post(`${__ENV.SUT_URL}/chat`, {
    bucket, tenant: `tenant-${exec.scenario.iterationInTest % 4}`, question: 'Where is my refund?',
    mock_seed: seeds[bucket] + exec.scenario.iterationInTest,
  }, { dialect: 'business', tags: { bucket } });
}
