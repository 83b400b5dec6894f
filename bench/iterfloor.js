// The iteration floor of the streaming benchmark: bench/streams.js's
// arrival rate and VUs, each iteration sleeping as long as a stream of
// bench/sseserver lasts (~0.95 s) instead of opening it. Its CPU is what
// running one JavaScript iteration per stream costs the runner (executor,
// VU, timers, metrics) with no network at all; bench/run.sh (section
// "floor") sets it beside the probe and bench/epollfloor.
//
//   usefullatency run -e RATE=1000 bench/iterfloor.js
import { sleep } from 'k6';

const RATE = Number(__ENV.RATE || 1000);
const VUS = Number(__ENV.VUS || 2 * RATE);

export const options = {
  scenarios: {
    iterations: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: __ENV.DURATION || '30s',
      preAllocatedVUs: VUS,
      maxVUs: VUS,
      gracefulStop: '5s',
    },
  },
};

export default function () {
  sleep(0.95);
}
