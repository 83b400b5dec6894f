// Feeds text a hostile server streamed back into the report: as a bucket
// name, as check names, as a custom metric's tag.
import usefulsse from 'k6/x/usefulsse';
import { check } from 'k6';
import { Counter } from 'k6/metrics';

const base = __ENV.SSE_URL;
const seen = new Counter('seen_answers');

export const options = {
  scenarios: { probe: { executor: 'per-vu-iterations', vus: 1, iterations: 2 } },
};

export default function () {
  const res = usefulsse.post(`${base}/inject`, '{}', { dialect: 'business', tags: { bucket: 'probe' } });
  usefulsse.post(`${base}/inject`, '{}', { dialect: 'business', tags: { bucket: res.text } });
  seen.add(1, { answer: res.state.decision });
  check(res, {
    [res.text]: () => true,
    [res.state.decision]: () => false,
  });
}
