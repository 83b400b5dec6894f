// compat: k6/metrics — Counter sums, Gauge keeps the last value, Rate counts non-zero values, Trend percentiles interpolate
import { Counter, Gauge, Rate, Trend } from 'k6/metrics';

const counter = new Counter('compat_counter');
const gauge = new Gauge('compat_gauge');
const rate = new Rate('compat_rate');
const trend = new Trend('compat_trend');
const timed = new Trend('compat_time', true);

export const options = {
  iterations: 1,
  thresholds: {
    compat_counter: ['count==10'],
    compat_gauge: ['value==3'],
    compat_rate: ['rate==0.5'],
    // 1..100: med = 50.5, p(90) = 90.1, p(95) = 95.05 (linear interpolation)
    compat_trend: ['avg==50.5', 'min==1', 'max==100', 'med==50.5', 'p(90)>90.099', 'p(90)<90.101', 'p(95)>95.049', 'p(95)<95.051'],
    'compat_trend{half:low}': ['max==50'],
    compat_time: ['max==1500'],
  },
};

export default function () {
  counter.add(4);
  counter.add(6);
  gauge.add(7);
  gauge.add(3);
  rate.add(true);
  rate.add(0);
  rate.add(1);
  rate.add(false);
  for (let i = 1; i <= 100; i++) {
    trend.add(i, { half: i <= 50 ? 'low' : 'high' });
  }
  timed.add(1500);
}
