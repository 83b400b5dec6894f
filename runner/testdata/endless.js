// Loops forever where __ENV.STAGE says ('teardown' or 'summary'), after
// logging a line that tells the test to send its signal. LONG=1 makes the
// scenario last 30 s, to be stopped by a first signal while it runs.
import { sleep } from 'k6';

const stage = __ENV.STAGE;

export const options = __ENV.LONG
  ? { scenarios: { long: { executor: 'constant-vus', vus: 1, duration: '30s' } }, teardownTimeout: '60s' }
  : { iterations: 3, teardownTimeout: '60s' };

export default function () {
  if (__ITER === 1) {
    console.log('endless.js: running');
  }
  sleep(__ENV.LONG ? 0.05 : 0);
}

export function teardown() {
  console.log('endless.js: in teardown');
  if (stage === 'teardown') {
    while (true) {}
  }
}

export function handleSummary() {
  console.log('endless.js: in handleSummary');
  if (stage === 'summary') {
    while (true) {}
  }
  return { stdout: 'custom summary\n' };
}
