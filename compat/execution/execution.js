// compat: k6/execution — scenario, VU and instance fields as documented: ids from 1, iterations from 0, test options
import { check } from 'k6';
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';

const seen = new Counter('compat_seen');

export const options = {
  scenarios: {
    pervu: { executor: 'per-vu-iterations', vus: 2, iterations: 3, tags: { kind: 'loop' } },
  },
  thresholds: { checks: ['rate==1'], compat_seen: ['count==6'], iterations: ['count==6'] },
};

export default function () {
  seen.add(1);
  check(exec, {
    'scenario name': (e) => e.scenario.name === 'pervu',
    'scenario executor': (e) => e.scenario.executor === 'per-vu-iterations',
    'vu id in test starts at 1': (e) => e.vu.idInTest >= 1 && e.vu.idInTest <= 2,
    'vu iteration in scenario from 0': (e) => e.vu.iterationInScenario >= 0 && e.vu.iterationInScenario < 3,
    'scenario iteration in test below 6': (e) => e.scenario.iterationInTest >= 0 && e.scenario.iterationInTest < 6,
    'instance VUs initialised': (e) => e.instance.vusInitialized === 2,
    'test options are readable': (e) => e.test.options.scenarios.pervu.iterations === 3,
    'scenario tags reach the VU': (e) => e.vu.tags.scenario === 'pervu' && e.vu.tags.kind === 'loop',
  });
}
