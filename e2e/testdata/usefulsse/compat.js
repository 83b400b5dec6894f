// A script written for the xk6-sse extension, unchanged.
import sse from 'k6/x/sse';
import { check } from 'k6';
import { Counter } from 'k6/metrics';

// xk6-sse scripts gate on its sse_event counter and on the request's
// http_req_duration.
export const options = {
  iterations: 2,
  thresholds: { checks: ['rate==1'], sse_event: ['count>0'], http_req_duration: ['p(95)<5000'] },
};

const seen = new Counter('script_events');

export default function () {
  const events = [];
  let opened = false;
  const response = sse.open(`${__ENV.SSE_URL}/business`, { method: 'POST', body: '{}', tags: { bucket: 'compat' } }, function (client) {
    client.on('open', function () { opened = true; });
    client.on('event', function (event) {
      events.push(event);
      if (event.data.includes('decision')) client.close();
    });
    client.on('error', function (e) { console.log('error', e.error()); });
  });
  seen.add(events.length);
  check(response, {
    'status is 200': (r) => r && r.status === 200,
    'opened': () => opened,
    'events have id, name, data, comment': () => events.length > 0 && events.every((e) => 'id' in e && 'name' in e && 'data' in e && 'comment' in e),
    'closed at the decision': () => events[events.length - 1].data.includes('decision'),
  });
}
