// Poisson arrivals at 50/s for 3 s (ARRIVAL, BURSTINESS and SEED change the
// process). Every iteration adds its global index to the Trend iit, so the
// iterations of segmented runs can be compared with one process exactly.
import exec from 'k6/execution';
import { Trend } from 'k6/metrics';

const iit = new Trend('iit');

export const options = {
  scenarios: {
    arrivals: {
      executor: 'constant-arrival-rate', rate: 50, timeUnit: '1s', duration: '3s',
      preAllocatedVUs: 40, maxVUs: 40, gracefulStop: '5s',
      arrival: __ENV.ARRIVAL || 'poisson',
      burstiness: __ENV.BURSTINESS === undefined ? undefined : Number(__ENV.BURSTINESS),
      arrivalSeed: __ENV.SEED === undefined ? undefined : Number(__ENV.SEED),
    },
  },
};

export default function () {
  iit.add(exec.scenario.iterationInTest);
}
