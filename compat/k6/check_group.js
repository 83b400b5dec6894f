// compat: k6 — check() returns whether every assertion passed; group() returns its callback's value; nested groups are tagged ::outer::inner
import { check, group } from 'k6';

export const options = {
  iterations: 1,
  thresholds: {
    checks: ['rate==0.8'],
    'checks{group:::outer::inner}': ['rate==1'],
  },
};

export default function () {
  const allPass = check(1, { 'one is one': (v) => v === 1, 'one is positive': (v) => v > 0 });
  const oneFails = check(1, { 'one is two (fails on purpose)': (v) => v === 2, 'truthy value counts': () => 'yes' });
  const value = group('outer', () => group('inner', () => {
    check(null, { 'inside the inner group': () => true });
    return 42;
  }));
  if (!allPass || oneFails || value !== 42) {
    throw new Error(`check/group returned ${allPass}, ${oneFails}, ${value}`);
  }
}
