// Three iterations, four checks each, in the root group and two nested
// groups. The tagged thresholds only see samples carrying --tag env=ci.
import { check, group } from 'k6';

export const options = {
  iterations: 3,
  thresholds: {
    'iterations{env:ci}': ['count==3'],
    'checks{env:ci}': ['rate>0.5'],
  },
};

export default function () {
  check(__ITER, {
    always: () => true,
    'first only': (i) => i === 0,
  });
  group('outer', () => {
    check(1, { 'in outer': (v) => v === 1 });
    group('inner', () => {
      check(1, { 'in inner': (v) => v === 2 });
    });
  });
}
