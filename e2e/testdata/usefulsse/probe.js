// Drives the probe through every dialect against the test's SSE server.
import usefulsse from 'k6/x/usefulsse';
import { check } from 'k6';
import { Counter } from 'k6/metrics';

const kinds = new Counter('seen_kinds');
const base = __ENV.SSE_URL;
const tlsBase = __ENV.SSE_TLS_URL; // a TLS twin of the server, when the test serves one

export const options = {
  scenarios: {
    business: { executor: 'per-vu-iterations', vus: 1, iterations: 3, exec: 'business' },
    dialects: { executor: 'per-vu-iterations', vus: 1, iterations: 2, exec: 'dialects' },
    failures: { executor: 'per-vu-iterations', vus: 1, iterations: 1, exec: 'failures' },
    ...(tlsBase ? { secure: { executor: 'per-vu-iterations', vus: 1, iterations: 1, exec: 'secure' } } : {}),
  },
  insecureSkipTLSVerify: true, // the TLS twin's certificate is the test's own
  thresholds: {
    'usefulsse_useful{bucket:qa}': ['p(95)<2000', 'avg>250'],
    'usefulsse_first_text{bucket:qa}': ['avg<250'],
    'usefulsse_mark{mark:decided}': ['max<2000'],
    checks: ['rate==1'],
  },
};

export function business() {
  const res = usefulsse.post(`${base}/business`, { q: 'can I get a refund?' }, {
    dialect: 'business',
    tags: { bucket: 'qa' },
    marks: {
      decided: { field: 'decision', equals: 'refund' },
      longText: (ctx) => ctx.text.length > 10,
    },
    onEvent: (ev) => kinds.add(1, { kind: ev.kind }),
    slo: { useful: '10s', first_text: '10s' },
  });
  check(res, {
    'status 200': (r) => r.status === 200,
    'first_event before first_text': (r) => r.timings.first_event < r.timings.first_text,
    'first_text before useful': (r) => r.timings.first_text < r.timings.useful,
    'useful before complete': (r) => r.timings.useful <= r.timings.complete,
    'state merged': (r) => r.state.decision === 'refund' && r.state.next_step === 'click refund',
    'heartbeats counted': (r) => r.heartbeats === 2,
    'empty counted': (r) => r.empty_events >= 1,
    'queue from the first event': (r) => r.timings.queue === 12,
    'function mark reached': (r) => r.marks.longText !== null,
    'no error': (r) => r.error === '' && r.error_code === '',
    'good within its slo': (r) => r.good === true,
  });
}

export async function dialects() {
  const [oa, an] = await Promise.all([
    usefulsse.requestAsync('POST', `${base}/openai`, '{}', {
      tags: { bucket: 'openai' }, pricing: { inputPer1M: 1000000, outputPer1M: 2000000 },
    }),
    usefulsse.requestAsync('POST', `${base}/anthropic`, '{}', { tags: { bucket: 'anthropic' } }),
  ]);
  check(oa, {
    'openai auto-detected': (r) => r.dialect === 'openai',
    'openai text': (r) => r.text === 'Hello world',
    'openai reasoning is not text': (r) => r.reasoning === 'thinking...',
    'openai tool call assembled': (r) => r.tool_calls.length === 1 && r.tool_calls[0].arguments === '{"id":42}',
    'openai usage and cost': (r) => r.usage.input_tokens === 10 && r.usage.output_tokens === 5 && r.cost === 20,
    'openai role chunk is the first event': (r) => r.timings.first_event < r.timings.first_text - 50,
  });
  check(an, {
    'anthropic auto-detected': (r) => r.dialect === 'anthropic',
    'anthropic text': (r) => r.text === 'Hi there',
    'anthropic thinking': (r) => r.reasoning === 'hmm',
    'anthropic ping is a heartbeat': (r) => r.heartbeats === 1,
    'anthropic usage': (r) => r.usage.input_tokens === 7 && r.usage.output_tokens === 3,
  });
}

export function failures() {
  const r500 = usefulsse.get(`${base}/status500`, { tags: { bucket: 'fail' } });
  const wrong = usefulsse.get(`${base}/wrongtype`, { tags: { bucket: 'fail' } });
  const refused = usefulsse.get('http://127.0.0.1:1/none', { tags: { bucket: 'fail' }, timeout: '2s' });
  const thrown = usefulsse.get(`${base}/business`, { tags: { bucket: 'fail' }, onEvent: () => { throw new Error('boom'); } });
  const badPredicate = usefulsse.get(`${base}/business`, { tags: { bucket: 'fail' }, useful: () => { throw new Error('bad'); } });
  check(null, {
    'non-2xx keeps the status': () => r500.status === 500 && r500.error_code === 'http_status' && r500.error.includes('overloaded'),
    'wrong content type named': () => wrong.error_code === 'content_type' && wrong.error.includes('text/html'),
    'refused connection': () => refused.error_code === 'connect_error' && refused.timings.first_event === null,
    'a throwing onEvent ends only its request': () => thrown.error_code === 'callback_error' && thrown.error.includes('onEvent') && thrown.timings.first_event !== null,
    'a throwing predicate names it': () => badPredicate.error_code === 'callback_error' && badPredicate.error.includes('useful'),
  });
  let threw = false;
  try {
    usefulsse.get(`${base}/business`, { useful: { nope: 1 } });
  } catch (e) {
    threw = String(e).includes('nope');
  }
  check(threw, { 'invalid predicate rejected before sending': (t) => t });
}

// One stream over TLS: its new connection reports its handshake.
export function secure() {
  const r = usefulsse.post(`${tlsBase}/openai`, '{}', { tags: { bucket: 'tls' } });
  check(r, {
    'tls: a new connection reports its connect and handshake': (x) => x.timings.connecting > 0 && x.timings.tls_handshaking > 0,
  });
}
