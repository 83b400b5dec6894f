// compat: handleSummary — data has k6's shape (what jslib's k6-summary textSummary and jUnit read: metric type, contains, values, thresholds' ok, root_group checks, options, state, setup_data); its result replaces the summary
// expect: ✓ jUnit counts the thresholds
import { check, group } from 'k6';
import { Trend } from 'k6/metrics';
import { jUnit } from './lib/junit-bundle.js';

const latency = new Trend('compat_latency', true);

export const options = {
  iterations: 2,
  summaryTrendStats: ['avg', 'p(95)', 'count'],
  thresholds: { compat_latency: ['p(95)<1000', 'max<=5'], checks: ['rate==1'] },
};

export function setup() {
  return { token: 'abc' };
}

export default function () {
  latency.add(5);
  group('g', () => check(1, { 'one': (v) => v === 1 }));
}

export function handleSummary(data) {
  const m = data.metrics.compat_latency;
  const g = data.root_group.groups[0];
  const xml = jUnit(data, { name: 'compat' });
  const results = {
    'a trend has type, contains and the summaryTrendStats values': m.type === 'trend' && m.contains === 'time' &&
      m.values.avg === 5 && m.values['p(95)'] === 5 && m.values.count === 2,
    'thresholds say ok per source': m.thresholds['p(95)<1000'].ok === true && m.thresholds['max<=5'].ok === true,
    'a rate has rate, passes and fails': data.metrics.checks.values.rate === 1 && data.metrics.checks.values.passes === 2,
    'groups and checks': g.name === 'g' && g.path === '::g' && g.checks[0].name === 'one' && g.checks[0].passes === 2 && g.checks[0].fails === 0,
    'options.summaryTrendStats': data.options.summaryTrendStats.join() === 'avg,p(95),count',
    'state.testRunDurationMs': typeof data.state.testRunDurationMs === 'number' && data.state.testRunDurationMs > 0,
    'setup_data': data.setup_data.token === 'abc',
    'jUnit counts the thresholds': xml.includes('tests="3" failures="0"') && xml.includes('compat_latency - max&lt;=5'),
  };
  const lines = Object.keys(results).map((name) => `${results[name] ? '✓' : '✗'} ${name}`);
  return { stdout: lines.join('\n') + '\n' };
}
