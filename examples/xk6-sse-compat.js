// A script written for the community xk6-sse extension, unchanged: it runs
// as is and also gets the usefulsse metrics (dialect auto-detected).
//
//   usefullatency run --mock examples/xk6-sse-compat.js
import sse from 'k6/x/sse';
import { check } from 'k6';

export const options = { vus: 2, iterations: 6, thresholds: { checks: ['rate==1'] } };

export default function () {
  const url = `${__ENV.SUT_URL || 'http://127.0.0.1:8099'}/chat`;
  const params = {
    method: 'POST',
    body: JSON.stringify({ bucket: 'qa', tenant: 'acme', question: 'Can I return it?' }),
    headers: { 'Content-Type': 'application/json' },
    tags: { bucket: 'qa' },
  };
  let events = 0;
  const response = sse.open(url, params, function (client) {
    client.on('open', function open() {
      console.log('connected');
    });
    client.on('event', function (event) {
      events++;
      if (event.data.includes('next_step')) {
        client.close();
      }
    });
    client.on('error', function (e) {
      console.log('An unexpected error occurred: ', e.error());
    });
  });
  check(response, { 'status is 200': (r) => r && r.status === 200, 'events received': () => events > 0 });
}
