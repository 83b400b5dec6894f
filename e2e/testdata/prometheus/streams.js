// Streams against the test's SSE server for the Prometheus round trip: a
// 'qa' bucket at an arrival rate its two VUs cannot keep up with (so some
// iterations are dropped) and a 'fail' bucket whose requests all fail.
import usefulsse from 'k6/x/usefulsse';
import { check } from 'k6';

const base = __ENV.SSE_URL;

export const options = {
  scenarios: {
    qa: {
      executor: 'constant-arrival-rate', rate: 10, timeUnit: '1s', duration: '2s',
      preAllocatedVUs: 2, maxVUs: 2, exec: 'qa',
    },
    failures: { executor: 'per-vu-iterations', vus: 1, iterations: 2, exec: 'failures' },
  },
  thresholds: {
    'usefulsse_first_event{bucket:qa}': ['p(99)<5000'],
    'usefulsse_first_text{bucket:qa}': ['p(99)<5000'],
    'usefulsse_useful{bucket:qa}': ['p(99)<5000'],
    'usefulsse_complete{bucket:qa}': ['p(99)<5000'],
    'usefulsse_failed{bucket:qa}': ['rate==0'],
  },
};

export function qa() {
  const res = usefulsse.post(`${base}/business`, { q: 'can I get a refund?' }, {
    dialect: 'business', tags: { bucket: 'qa' },
  });
  check(res, { 'useful reached': (r) => r.useful_reached });
}

export function failures() {
  const res = usefulsse.get(`${base}/status500`, { tags: { bucket: 'fail' } });
  check(res, { 'failure named': (r) => r.error_code === 'http_status' });
}
