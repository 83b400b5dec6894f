// Five quick iterations feeding one metric of each type. The thresholds
// come as JSON in __ENV.THRESHOLDS; setup() logs so a test can tell
// whether the run started.
import { Counter, Gauge, Rate, Trend } from 'k6/metrics';

const hits = new Counter('hits');
const level = new Gauge('level');
const ok = new Rate('ok');
const wait = new Trend('wait');

export const options = {
  iterations: 5,
  thresholds: JSON.parse(__ENV.THRESHOLDS || '{}'),
};

export function setup() {
  console.log('setup started');
}

export default function () {
  hits.add(1);
  level.add(7);
  ok.add(__ITER < 4); // 4 of 5
  wait.add((__ITER + 1) * 10); // 10..50
}
