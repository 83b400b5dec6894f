// Open-loop accuracy: a trivial iteration at a constant arrival rate.
export const options = {
  scenarios: {
    open: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE || 5000),
      timeUnit: '1s',
      duration: __ENV.DURATION || '30s',
      preAllocatedVUs: Number(__ENV.VUS || 200),
      maxVUs: Number(__ENV.VUS || 200),
    },
  },
  summaryTrendStats: ['avg', 'med', 'p(99)', 'max', 'count'],
};

export default function () {}
