// A runner's share as k6-operator starts it: the thresholds hold only when
// both --tag flags the operator adds reached every iteration. setup()
// logs, so a test can tell whether it ran before the test was resumed.
import { sleep } from 'k6';

export const options = {
  scenarios: { main: { executor: 'shared-iterations', vus: 2, iterations: 6 } },
  thresholds: {
    'iterations{instance_id:0}': ['count==6'],
    'iterations{testrun_name:demo}': ['count==6'],
  },
};

export function setup() { console.log('operator.js: setup'); }

export default function () { sleep(0.01); }
