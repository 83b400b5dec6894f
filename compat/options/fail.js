// compat: k6/execution — exec.test.fail() lets the test finish and exits 110
// exit: 110
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';

const ran = new Counter('compat_ran');

export const options = { iterations: 3, thresholds: { compat_ran: ['count==3'] } };

export default function () {
  ran.add(1);
  exec.test.fail('marked');
}
