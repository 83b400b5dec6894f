// k6/http under open-loop load: http.get of a 1 KiB body from
// bench/httpserver (BASE) at a constant arrival rate (RATE per second for
// DURATION), as bench/http.sh runs it.
import http from 'k6/http';

export const options = {
  scenarios: {
    get: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE || 1000),
      timeUnit: '1s',
      duration: __ENV.DURATION || '10s',
      preAllocatedVUs: Number(__ENV.VUS || 50),
      maxVUs: Number(__ENV.VUS || 50),
    },
  },
  summaryTrendStats: ['avg', 'med', 'p(99)', 'max', 'count'],
};

export default function () {
  http.get(__ENV.BASE);
}
