// group('') is allowed, as in k6; a tag whose value is an object is
// rejected with a TypeError, numbers and booleans are read as strings.
import { check, group } from 'k6';
import { Counter } from 'k6/metrics';

const tagged = new Counter('tagged');

export const options = { iterations: 1, thresholds: { checks: ['rate==1'], 'tagged{n:1}': ['count==1'] } };

export default function () {
  group('', () => {
    check(true, { 'inside an empty group': (v) => v });
  });
  let msg = '';
  try {
    tagged.add(1, { nested: { a: 1 } });
  } catch (e) {
    msg = String(e);
  }
  check(msg, { 'object tag value rejected': (m) => m.includes('TypeError: invalid value for tag "nested": an object') });
  tagged.add(1, { n: 1, b: true, s: 'x' });
}
