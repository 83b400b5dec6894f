// xk6-sse's metrics, as xk6-sse emits them: http_req_duration is the whole
// exchange, until the stream ends or client.close(); http_reqs one per
// sse.open; http_req_sending twice per sse.open (the test counts them).
// The server (SSE_URL/paced) sends an event at 0, 150 and 300 ms, then
// ends.
import sse from 'k6/x/sse';

export const options = {
  iterations: 1,
  thresholds: {
    'http_req_duration{kind:full}': ['min>=290'],
    'http_req_duration{kind:closed}': ['max<140'],
    'http_reqs{kind:full}': ['count==1'],
    http_reqs: ['count==2'],
    http_req_sending: ['max<140'],
    sse_event: ['count==4'],
  },
};

export default function () {
  sse.open(`${__ENV.SSE_URL}/paced`, { tags: { kind: 'full' } }, function (client) {
    client.on('event', function () {});
  });
  sse.open(`${__ENV.SSE_URL}/paced`, { tags: { kind: 'closed' } }, function (client) {
    client.on('event', function () { client.close(); });
  });
}
