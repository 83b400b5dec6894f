// A short open-model streaming run for the HTML report: two buckets, one
// threshold that passes and one that fails (exit 99), checks.
import usefulsse from 'k6/x/usefulsse';
import { check } from 'k6';

const base = __ENV.SSE_URL;

export const options = {
  scenarios: {
    qa: { executor: 'constant-arrival-rate', rate: 4, timeUnit: '1s', duration: '2s', preAllocatedVUs: 4, exec: 'qa' },
    chat: { executor: 'constant-arrival-rate', rate: 2, timeUnit: '1s', duration: '2s', preAllocatedVUs: 2, exec: 'chat' },
  },
  thresholds: {
    'usefulsse_useful{bucket:qa}': ['p(95)<2000'],
    'usefulsse_first_text{bucket:openai}': ['p(95)<1'],
    checks: ['rate==1'],
  },
};

export function qa() {
  const res = usefulsse.post(`${base}/business`, { q: 'refund?' }, { dialect: 'business', tags: { bucket: 'qa' } });
  check(res, {
    'status 200': (r) => r.status === 200,
    'useful reached': (r) => r.timings.useful !== null,
  });
}

export function chat() {
  const res = usefulsse.post(`${base}/openai`, '{}', { tags: { bucket: 'openai' } });
  check(res, { 'status 200': (r) => r.status === 200 });
}
