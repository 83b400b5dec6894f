// A request that gets no response: k6 logs "Request Failed" with the
// error, once per request, and the script goes on (throw is off).
import http from 'k6/http';

export const options = { iterations: 2 };

export default function () {
  const res = http.get(__ENV.DEAD_URL);
  if (res.status !== 0 || res.error_code === 0) {
    throw new Error(`want a failed response, got status ${res.status}`);
  }
}
