// 30 s of two VUs, to be stopped by a signal.
import { sleep } from 'k6';

export const options = {
  scenarios: { long: { executor: 'constant-vus', vus: 2, duration: '30s' } },
};

export default function () {
  sleep(0.2);
}

export function teardown() {
  sleep(Number(__ENV.TEARDOWN_SLEEP || 0));
}
