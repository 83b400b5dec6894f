// Open streams for the memory benchmark side by side with k6
// (bench/k6side.sh): RATE new streams a second for DURATION, each an
// http.get of a stream of bench/sseserver (SSE_URL; 20 events 250 ms
// apart, about 5 s), so about 5 × RATE streams are open at once; k6/http
// reads each whole body, in us as in k6. The VUs are the same at every
// rate, so that the difference in memory between two rates is the streams'.
import http from 'k6/http';

export const options = {
  scenarios: {
    open: {
      executor: 'constant-arrival-rate', rate: Number(__ENV.RATE || 100), timeUnit: '1s',
      duration: __ENV.DURATION || '15s',
      preAllocatedVUs: Number(__ENV.VUS || 2000), maxVUs: Number(__ENV.VUS || 2000),
    },
  },
};

export default function () {
  http.get(`${__ENV.SSE_URL}/chat`);
}
