// A 20 s test that aborts itself on its fourth iteration.
import exec from 'k6/execution';
import { sleep } from 'k6';

export const options = {
  scenarios: { long: { executor: 'constant-vus', vus: 1, duration: '20s' } },
};

export default function () {
  sleep(0.05);
  if (exec.scenario.iterationInTest === 3) {
    exec.test.abort('stop now');
  }
}

export function teardown() {
  console.log('teardown ran');
}
