// Marks the test as failed in the first iteration; the other iterations
// and teardown still run.
import exec from 'k6/execution';

export const options = { iterations: 3 };

export default function () {
  if (exec.scenario.iterationInTest === 0) {
    exec.test.fail('first iteration saw a bad answer');
  }
  console.log(`iteration ${exec.scenario.iterationInTest} done`);
}

export function teardown() {
  console.log('teardown ran');
}
