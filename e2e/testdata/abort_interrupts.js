// One VU aborts the test at 0.3 s while another sleeps for 5 s: the
// sleeper's iteration is interrupted and must not count, nor must the
// aborting one. The thresholds only create the per-scenario submetrics
// the summary export reports.
import exec from 'k6/execution';
import { sleep } from 'k6';

export const options = {
  scenarios: {
    aborter: { executor: 'per-vu-iterations', exec: 'aborter' },
    sleeper: { executor: 'per-vu-iterations', exec: 'sleeper' },
  },
  thresholds: {
    'iterations{scenario:sleeper}': ['count==0'],
    'iterations{scenario:aborter}': ['count==0'],
  },
};

export function aborter() {
  sleep(0.3);
  exec.test.abort('enough');
}

export function sleeper() {
  sleep(5);
}
