// 10 iterations/s for 3 s with a single VU busy for 1 s per iteration:
// about 3 iterations run and 27 are dropped.
import { sleep } from 'k6';

export const options = {
  scenarios: {
    car: {
      executor: 'constant-arrival-rate', rate: 10, timeUnit: '1s', duration: '3s',
      preAllocatedVUs: 1, maxVUs: 1,
    },
  },
};

export default function () {
  sleep(1);
}
