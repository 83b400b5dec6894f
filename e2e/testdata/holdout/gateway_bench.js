// The shape of an LLM gateway benchmark: non-streaming chat completions
// through k6/http, the answer parsed with res.json(), output tokens per
// second from the usage block, the host and VU count from the
// environment, and a CI report written by handleSummary.
import http from 'k6/http';
import { check } from 'k6';
import { Trend } from 'k6/metrics';

const tokensPerSecond = new Trend('output_tokens_per_second');

export const options = {
  scenarios: {
    gateway: {
      executor: 'constant-arrival-rate',
      rate: __ENV.RATE || '4', timeUnit: '1s', duration: __ENV.DURATION || '3s',
      preAllocatedVUs: __ENV.VUS || '8',
    },
  },
  thresholds: { checks: ['rate==1'], http_req_failed: ['rate==0'] },
};

const url = `${__ENV.BASE_URL}/v1/chat/completions`;

export default function () {
  const res = http.post(url, JSON.stringify({
    model: 'assistant', messages: [{ role: 'user', content: 'Can I return my headphones?' }], max_tokens: 64,
  }), { headers: { 'Content-Type': 'application/json' } });
  const body = res.json();
  check(res, {
    'answer': () => body.choices[0].message.content.length > 0,
    'usage': () => body.usage.completion_tokens > 0 && body.usage.completion_tokens <= 64,
  });
  tokensPerSecond.add(body.usage.completion_tokens / (res.timings.duration / 1000));
}

export function handleSummary(data) {
  return {
    [__ENV.REPORT]: JSON.stringify({
      requests: data.metrics.http_reqs.values.count,
      tokens_per_second_p50: data.metrics.output_tokens_per_second.values.med,
    }),
    stdout: 'report written\n',
  };
}
