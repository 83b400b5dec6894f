// Coordinated omission, shown on one overloaded assistant. The same tenant
// (64 worker slots, about 35 answers/s) is driven twice:
//   closed: 64 VUs that each wait for their answer before asking again — the
//           load slows down with the server, so no request ever queues and
//           the percentiles look fine;
//   open:   45 new conversations per second whatever the server does — the
//           tenant queue grows, and the percentiles show what users live.
// The "where the time goes" table puts both side by side (bucket = scenario).
//
//   usefullatency run --mock examples/closed-vs-open.js
import usefulsse from 'k6/x/usefulsse';

const base = __ENV.SUT_URL || 'http://127.0.0.1:8099';
const duration = __ENV.DURATION || '10s';
const rate = Number(__ENV.RATE || 45);
const slots = Number(__ENV.SLOTS || 64);

export const options = {
  scenarios: {
    closed: { executor: 'constant-vus', vus: slots, duration, gracefulStop: '30s' },
    open: {
      executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration, startTime: duration,
      preAllocatedVUs: rate * 4, maxVUs: rate * 15, gracefulStop: '30s',
    },
  },
  thresholds: {
    // Reported, not gated: the point is the difference between the rows.
    'usefulsse_useful{scenario:closed}': ['p(95)>0'],
    'usefulsse_useful{scenario:open}': ['p(95)>0'],
    'usefulsse_queue{scenario:open}': ['p(95)>0'],
  },
  summaryTrendStats: ['med', 'p(95)', 'p(99)', 'max'],
};

export default function () {
  usefulsse.post(`${base}/chat`, { bucket: 'qa', tenant: 'overloaded', question: 'Can I return it?' }, {
    dialect: 'business',
  });
}
