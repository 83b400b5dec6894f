// A 20 s test whose threshold fails from the first iteration and aborts it.
import { sleep } from 'k6';
import { Counter } from 'k6/metrics';

const errors = new Counter('errors');

export const options = {
  scenarios: { long: { executor: 'constant-vus', vus: 1, duration: '20s' } },
  thresholds: { errors: [{ threshold: 'count<1', abortOnFail: true }] },
};

export default function () {
  errors.add(1);
  sleep(0.1);
}

export function teardown() {
  console.log('teardown ran');
}
