// compat: thresholds — a crossed threshold exits 99 after the whole test, and the summary marks it ✗
// exit: 99
import { Trend } from 'k6/metrics';

const t = new Trend('compat_latency');

export const options = { iterations: 2, thresholds: { compat_latency: ['max<10'], iterations: ['count==2'] } };

export default function () {
  t.add(20);
}
