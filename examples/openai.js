// The same after-sales question through the OpenAI-compatible endpoint of
// the assistant: a role-only first chunk, reasoning, a tool call, then the
// answer. Shows why first_event ("time to first token" in most tools) says
// little: it is the role chunk; first_text and useful come much later.
//
//   usefullatency run --mock examples/openai.js
import usefulsse from 'k6/x/usefulsse';
import { check } from 'k6';

const base = __ENV.SUT_URL || 'http://127.0.0.1:8099';

export const options = {
  scenarios: {
    openai: {
      executor: 'constant-arrival-rate', rate: 2, timeUnit: '1s', duration: __ENV.DURATION || '10s',
      preAllocatedVUs: 10, maxVUs: 30, tags: { bucket: 'single_tool' },
    },
  },
  // The simulated assistant's single_tool answers through this endpoint:
  // first_text p99 about 3.7 s, useful p99 about 4.6 s (mock/config.go);
  // the gates leave room for a short run's few samples on a busy machine.
  thresholds: {
    'usefulsse_first_text{bucket:single_tool}': ['p(95)<5000'],
    'usefulsse_useful{bucket:single_tool}': ['p(95)<6000'],
    usefulsse_failed: ['rate==0'],
    checks: ['rate==1'],
  },
};

export default function () {
  const res = usefulsse.post(`${base}/v1/chat/completions`, {
    model: 'assistant', stream: true, stream_options: { include_usage: true }, reasoning_effort: 'low',
    metadata: { bucket: 'single_tool', tenant: 'acme' },
    messages: [{ role: 'user', content: 'My blender arrived broken. Can I get a refund?' }],
  }, {
    dialect: 'openai',
    tags: { bucket: 'single_tool' },
    pricing: { inputPer1M: 0.15, outputPer1M: 0.6 },
    // The answer is useful once it states the decision and the next step.
    useful: { all: [{ text: '(approved|denied|refund)' }, { text: 'Next step' }] },
  });
  check(res, {
    'role chunk first, text later': (r) => r.timings.first_event < r.timings.first_text,
    'reasoning is not visible text': (r) => r.reasoning.length > 0 && !r.text.includes(r.reasoning),
    'a tool was called': (r) => r.tool_calls.length > 0,
    'usage reported': (r) => r.usage.output_tokens > 0 && r.cost > 0,
  });
}
