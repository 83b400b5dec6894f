// VUS VUs for 1 s, each iteration sleeping 0.7 s: the first iteration
// (0-0.7 s) completes; the second (0.7-1.4 s) completes within a 1 s
// gracefulStop and is interrupted at 1 s with gracefulStop 0s.
import { sleep } from 'k6';

export const options = {
  scenarios: {
    s: { executor: 'constant-vus', vus: Number(__ENV.VUS || 1), duration: '1s', gracefulStop: __ENV.GRACEFUL_STOP },
  },
};

export default function () {
  sleep(0.7);
}
