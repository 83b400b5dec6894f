// 1e8 iterations/s for 2 s: far more than one process starts. The run
// ends at its duration, and every due iteration is started or dropped.
export const options = {
  scenarios: {
    flood: {
      executor: 'constant-arrival-rate', rate: 1e8, timeUnit: '1s', duration: '2s',
      preAllocatedVUs: 10, maxVUs: 10, gracefulStop: '1s',
    },
  },
};

export default function () {}
