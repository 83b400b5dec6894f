// Times the start of one seeded stream the way scripts written for vLLM or
// llama.cpp do: the time to the first chunk (the role chunk, where the
// server sends one) and to the first text with the probe, and the time to
// the response's first byte with plain k6/http. Under `run --mock` the
// first chunk reads the model's first-token time only with a server
// profile that sends it then (--mock-profile vllm); the first byte only
// with one that holds its headers until then (--mock-profile llamacpp).
import usefulsse from 'k6/x/usefulsse';
import http from 'k6/http';
import { Trend } from 'k6/metrics';

export const options = { iterations: 1 };

const body = open('./request.json');
const firstChunk = new Trend('first_chunk_ms', true);
const firstText = new Trend('first_text_ms', true);
const firstByte = new Trend('first_byte_ms', true);

export default function () {
  const url = `${__ENV.OPENAI_API_BASE}/chat/completions`;
  const res = usefulsse.post(url, JSON.parse(body), { dialect: 'openai' });
  firstChunk.add(res.timings.first_event);
  firstText.add(res.timings.first_text);
  const plain = http.post(url, body, { headers: { 'Content-Type': 'application/json' } });
  firstByte.add(plain.timings.waiting);
}
