// setup() throws (or, with ABORT set, aborts the test): the run still
// ends with its summary, and handleSummary() still runs, as in k6.
import exec from 'k6/execution';

export function setup() {
  if (__ENV.ABORT) {
    exec.test.abort('no data');
  }
  throw new Error('boom in setup');
}

export default function () {}

export function handleSummary(data) {
  return { stdout: `handleSummary ran: ${typeof data.metrics === 'object'}\n` };
}
