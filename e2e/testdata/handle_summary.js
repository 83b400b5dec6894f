// setup() data must reach every iteration and teardown(); handleSummary()
// writes a line to stdout and the whole data object to __ENV.SUMMARY_JSON.
import { Counter } from 'k6/metrics';

const seen = new Counter('seen_token');

export const options = { iterations: 4 };

export function setup() {
  return { token: 'abc', n: 2 };
}

export default function (data) {
  if (data.token === 'abc') {
    seen.add(data.n);
  }
}

export function teardown(data) {
  console.log('teardown token=' + data.token);
}

export function handleSummary(data) {
  return { stdout: 'custom summary\n', [__ENV.SUMMARY_JSON]: JSON.stringify(data) };
}
