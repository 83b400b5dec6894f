// Three VUs loop for a second; a threshold selects a submetric with a
// space after the colon, as users write it.
import { Trend } from 'k6/metrics';

const latency = new Trend('latency');

export const options = {
  vus: 3,
  duration: '1s',
  thresholds: { 'latency{kind: odd}': ['max>=0'] },
};

export default function () {
  latency.add(__ITER, { kind: __ITER % 2 ? 'odd' : 'even' });
}
