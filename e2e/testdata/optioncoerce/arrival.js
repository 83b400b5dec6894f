// A constant-arrival-rate scenario whose numbers are strings, as k6
// accepts them: 5 iterations a second ("1000" ms) for 1 s on 2 VUs; maxVUs
// "" is unset, so it is preAllocatedVUs.
export const options = {
  scenarios: {
    arrivals: {
      executor: 'constant-arrival-rate', rate: '5', timeUnit: '1000', duration: '1s',
      preAllocatedVUs: '2', maxVUs: '', gracefulStop: '5s',
    },
  },
};

export default function () {}
