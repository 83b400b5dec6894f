// A search's subject: two arrival-rate buckets (3 : 1) against a server
// of known capacity (SERVER_URL), gated on the time to an answer.
import http from 'k6/http';

export const options = {
  scenarios: {
    answers: {
      executor: 'constant-arrival-rate', rate: 6, timeUnit: '1s', duration: '10s',
      preAllocatedVUs: 4, maxVUs: 12, exec: 'ask', tags: { bucket: 'answers' },
    },
    lookups: {
      executor: 'ramping-arrival-rate', startRate: 1, timeUnit: '1s', preAllocatedVUs: 2, maxVUs: 4,
      stages: [{ duration: '5s', target: 2 }], exec: 'ask', tags: { bucket: 'lookups' },
    },
  },
  thresholds: {
    'http_req_duration{bucket:answers}': ['p(95)<400'],
    'http_req_failed': ['rate<0.01'],
  },
};

export function ask() {
  http.get(__ENV.SERVER_URL);
}
