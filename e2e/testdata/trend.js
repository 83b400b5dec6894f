// A Trend fed 1..100, one value per iteration of a single VU.
import { Trend } from 'k6/metrics';

const trend = new Trend('my_trend');

export const options = {
  scenarios: { fill: { executor: 'shared-iterations', vus: 1, iterations: 100 } },
};

export default function () {
  trend.add(__ITER + 1); // __ITER is per VU: 0..99 with one VU
}
