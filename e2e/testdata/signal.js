// 30 s of two VUs, to be stopped by a signal. The log tells the test when
// a VU has completed five iterations and when teardown starts: the moments
// it sends its signals.
import { sleep } from 'k6';

export const options = {
  scenarios: { long: { executor: 'constant-vus', vus: 2, duration: '30s' } },
};

export default function () {
  if (__ITER === 5) {
    console.log('signal.js: five iterations done');
  }
  sleep(0.2);
}

export function teardown() {
  console.log('signal.js: teardown');
  sleep(Number(__ENV.TEARDOWN_SLEEP || 0));
}
