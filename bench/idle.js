// Idle VUs for the memory benchmark: every VU sleeps through one iteration.
import { sleep } from 'k6';

export const options = {
  scenarios: {
    idle: { executor: 'per-vu-iterations', vus: Number(__ENV.VUS || 1000), iterations: 1, maxDuration: '1m' },
  },
};

export default function () {
  sleep(Number(__ENV.SLEEP || 2));
}
