// An xk6-sse script whose event handler throws: the error the user sees
// is that exception, at this file's line, in xk6-sse's words.
import sse from 'k6/x/sse';

export const options = { iterations: 1 };

export default function () {
  sse.open(`${__ENV.SSE_URL}/business`, { method: 'POST', body: '{}' }, function (client) {
    client.on('event', function () {
      throw new Error('boom in the event handler');
    });
  });
}
