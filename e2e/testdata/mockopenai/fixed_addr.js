// A script with its server's address fixed (TARGET stands for a URL
// written into the script), run with --mock-addr on that address; HOST is
// set with -e, which wins over the name run --mock would set.
import http from 'k6/http';
import { check } from 'k6';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

export default function () {
  const res = http.post(`${__ENV.TARGET}/v1/chat/completions`, JSON.stringify({
    model: 'any', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3,
  }), { headers: { 'Content-Type': 'application/json' } });
  check(res, {
    'answered on the fixed address': (r) => r.status === 200 && r.json().object === 'chat.completion',
    'BASE_URL is that address': () => __ENV.BASE_URL === __ENV.TARGET,
    '-e HOST wins': () => __ENV.HOST === 'example.invalid:1',
  });
}
