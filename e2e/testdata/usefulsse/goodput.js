// Goodput against the built-in assistant: 12 qa questions; every fourth
// names no objective (bucket plain), every third of the others can't meet
// its objective (1 µs to the useful answer): 6 of the 9 requests with
// objectives are good.
import usefulsse from 'k6/x/usefulsse';
import exec from 'k6/execution';
import { check } from 'k6';

export const options = {
  scenarios: { ask: { executor: 'shared-iterations', vus: 4, iterations: 12, maxDuration: '60s' } },
  thresholds: { 'usefulsse_good{bucket:qa}': [__ENV.GATE || 'rate>=0.5'] },
};

export default function () {
  const i = exec.scenario.iterationInTest;
  const params = { tags: { bucket: 'qa' }, slo: { useful: i % 3 === 0 ? 0.001 : '30s', first_text: '30s' } };
  if (i % 4 === 3) {
    params.tags.bucket = 'plain';
    delete params.slo;
  }
  const res = usefulsse.post(`${__ENV.SUT_URL}/chat`, { bucket: 'qa', question: 'Can I return my order?' }, params);
  check(res, { 'good is judged only with objectives': (r) => (params.slo ? r.good === (i % 3 !== 0) : r.good === null) });
}
