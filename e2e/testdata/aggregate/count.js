// 60 iterations shared by 3 VUs, each adding 1 to a Counter and sleeping
// PAUSE seconds (default 0.4). Three segmented runners get 20 each. The
// gate `done: count<LIMIT` (default 30) with abortOnFail is never crossed by
// one runner's share (20), only by the whole test: a live aggregator must
// stop every runner, a runner alone never stops.
import { sleep } from 'k6';
import { Counter } from 'k6/metrics';

const done = new Counter('done');

export const options = {
  scenarios: {
    count: { executor: 'shared-iterations', vus: 3, iterations: 60, maxDuration: '60s' },
  },
  thresholds: {
    done: [{ threshold: `count<${__ENV.LIMIT || 30}`, abortOnFail: true }],
  },
};

export default function () {
  done.add(1);
  sleep(Number(__ENV.PAUSE || 0.4));
}
