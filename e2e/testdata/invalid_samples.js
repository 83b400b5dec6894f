// Adds invalid values (undefined, NaN, null, a word) to every custom
// metric type next to valid ones. k6 drops the invalid samples, so the
// thresholds see only the valid values. With THROW=1 the throw option
// makes the first invalid add() throw instead.
import { check } from 'k6';
import { Counter, Gauge, Rate, Trend } from 'k6/metrics';

const trend = new Trend('bad_trend');
const counter = new Counter('bad_counter');
const rate = new Rate('bad_rate');
const gauge = new Gauge('bad_gauge');

export const options = {
  iterations: 3,
  throw: __ENV.THROW === '1',
  thresholds: {
    bad_trend: ['avg<100', 'max==50'],
    bad_counter: ['count==3'],
    bad_rate: ['rate==1'],
    bad_gauge: ['value==7'],
  },
};

export default function () {
  const dropped = [trend.add(undefined), trend.add(NaN), counter.add(NaN), rate.add(null), gauge.add('abc')];
  check(dropped, { 'invalid add() returns false': (d) => d.every((x) => x === false) });
  trend.add(50);
  counter.add(1);
  rate.add(true);
  gauge.add(7);
}
