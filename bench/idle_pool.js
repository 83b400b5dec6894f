// Idle pooled VUs for the memory benchmark: a constant-arrival-rate scenario
// pre-allocates VUS initialised VUs that mostly sit idle in the pool (no
// goroutine per VU), for SLEEP seconds.
import { sleep } from 'k6';

export const options = {
  scenarios: {
    idle: {
      executor: 'constant-arrival-rate', rate: 1, timeUnit: '1s',
      duration: `${Number(__ENV.SLEEP || 2)}s`,
      preAllocatedVUs: Number(__ENV.VUS || 1000), maxVUs: Number(__ENV.VUS || 1000),
    },
  },
};

export default function () {
  sleep(0.01);
}
