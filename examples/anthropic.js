// The same question through the Anthropic Messages endpoint: message_start,
// ping events (heartbeats), a thinking block (reasoning, not visible), a
// tool_use block, then text. first_event vs first_text vs useful again.
//
//   usefullatency run --mock examples/anthropic.js
import usefulsse from 'k6/x/usefulsse';
import { check } from 'k6';

const base = __ENV.SUT_URL || 'http://127.0.0.1:8099';

export const options = {
  scenarios: {
    anthropic: {
      executor: 'constant-arrival-rate', rate: 2, timeUnit: '1s', duration: __ENV.DURATION || '10s',
      preAllocatedVUs: 10, maxVUs: 30, tags: { bucket: 'single_tool' },
    },
  },
  thresholds: {
    // single_tool's useful answer: p99 about 4.6 s on the simulated
    // assistant (mock/config.go), with room for a short run's few samples.
    'usefulsse_useful{bucket:single_tool}': ['p(95)<6000'],
    usefulsse_failed: ['rate==0'],
    checks: ['rate==1'],
  },
};

export default function () {
  const res = usefulsse.post(`${base}/v1/messages`, {
    model: 'assistant', stream: true, max_tokens: 512, thinking: { type: 'enabled', budget_tokens: 1024 },
    metadata: { bucket: 'single_tool', tenant: 'acme' },
    messages: [{ role: 'user', content: 'My blender arrived broken. Can I get a refund?' }],
  }, {
    dialect: 'anthropic',
    tags: { bucket: 'single_tool' },
    useful: { all: [{ text: '(approved|denied|refund)' }, { text: 'Next step' }] },
  });
  check(res, {
    'message_start first, text later': (r) => r.timings.first_event < r.timings.first_text,
    'thinking is reasoning': (r) => r.reasoning.length > 0,
    'pings are heartbeats': (r) => r.heartbeats >= 0,
    'usage reported': (r) => r.usage.input_tokens > 0 && r.usage.output_tokens > 0,
  });
}
