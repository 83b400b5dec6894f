// compat: k6/execution — exec.test.abort() stops the test with exit 108
// exit: 108
import exec from 'k6/execution';

export const options = { iterations: 5 };

export default function () {
  exec.test.abort('enough');
}
