// The shape of an LLM server benchmark written for xk6-sse: a streaming
// chat completion opened with sse.open, time to first token taken in the
// script when the first chunk with content arrives, the stream closed at
// [DONE]; VUs and iterations from the environment, as strings.
import sse from 'k6/x/sse';
import { check } from 'k6';
import { Trend, Counter } from 'k6/metrics';

const ttft = new Trend('ttft', true);
const tokens = new Counter('tokens');

export const options = {
  vus: __ENV.VUS || '2',
  iterations: __ENV.ITERATIONS || '6',
  thresholds: { checks: ['rate==1'], ttft: ['p(95)<10000'] },
};

const base = __ENV.OPENAI_API_BASE;

export default function () {
  const start = Date.now();
  let first = true;
  let done = false;
  const res = sse.open(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer EMPTY' },
    body: JSON.stringify({ model: 'assistant', stream: true, messages: [{ role: 'user', content: 'Where is my refund?' }] }),
  }, function (client) {
    client.on('event', function (event) {
      if (event.data === '[DONE]') {
        done = true;
        client.close();
        return;
      }
      const delta = JSON.parse(event.data).choices[0].delta;
      if (delta.content) {
        if (first) {
          ttft.add(Date.now() - start);
          first = false;
        }
        tokens.add(1);
      }
    });
  });
  check(res, { 'status 200': (r) => r.status === 200, 'stream ended with [DONE]': () => done });
}
