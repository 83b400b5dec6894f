// compat: scenarios — constant-arrival-rate starts rate iterations per timeUnit; too few VUs drop iterations into dropped_iterations
import { sleep } from 'k6';

export const options = {
  scenarios: {
    steady: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '1s', preAllocatedVUs: 2 },
    starved: {
      executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '1s',
      preAllocatedVUs: 1, maxVUs: 1, exec: 'slow',
    },
  },
  thresholds: {
    'iterations{scenario:steady}': ['count>=19', 'count<=21'],
    'dropped_iterations{scenario:starved}': ['count>=10'],
    'dropped_iterations{scenario:steady}': ['count==0'],
  },
};

export default function () {}

export function slow() {
  sleep(0.3);
}
