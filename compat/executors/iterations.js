// compat: scenarios — shared-iterations, per-vu-iterations and startTime run the documented number of iterations
import { Counter } from 'k6/metrics';

const byScenario = new Counter('compat_by_scenario');

export const options = {
  scenarios: {
    shared: { executor: 'shared-iterations', vus: 3, iterations: 7 },
    pervu: { executor: 'per-vu-iterations', vus: 2, iterations: 4, startTime: '100ms' },
  },
  thresholds: {
    iterations: ['count==15'],
    'iterations{scenario:shared}': ['count==7'],
    'iterations{scenario:pervu}': ['count==8'],
    'compat_by_scenario{scenario:pervu}': ['count==8'],
    dropped_iterations: ['count==0'],
  },
};

export default function () {
  byScenario.add(1);
}
