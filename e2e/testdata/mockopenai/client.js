// A load-test script written for an OpenAI-compatible server (vLLM,
// llama.cpp, TGI, a LiteLLM gateway), run unchanged against `run --mock`:
// plain k6/http, non-streaming requests whose bodies it parses with
// res.json(), the base URL from the environment names such scripts read.
import http from 'k6/http';
import { check } from 'k6';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

const api = __ENV.OPENAI_API_BASE; // e.g. http://127.0.0.1:8000/v1
const json = { headers: { 'Content-Type': 'application/json', Authorization: 'Bearer EMPTY' } };

export default function () {
  check(__ENV, {
    'OPENAI_API_BASE is BASE_URL/v1': (e) => e.OPENAI_API_BASE === `${e.BASE_URL}/v1`,
    'OPENAI_BASE_URL is OPENAI_API_BASE': (e) => e.OPENAI_BASE_URL === e.OPENAI_API_BASE,
    'LLM_URL and SUT_URL are BASE_URL': (e) => e.LLM_URL === e.BASE_URL && e.SUT_URL === e.BASE_URL,
    'HOST is host:port': (e) => `http://${e.HOST}` === e.BASE_URL && /^[0-9.]+:[0-9]+$/.test(e.HOST),
  });

  const health = http.get(`${__ENV.BASE_URL}/health`);
  check(health, { 'health 200': (r) => r.status === 200 });
  const version = http.get(`${api}/version`);
  check(version, { 'version': (r) => r.status === 200 && typeof r.json().version === 'string' });

  const models = http.get(`${api}/models`);
  check(models, {
    'models 200': (r) => r.status === 200,
    'models is a list': (r) => r.json().object === 'list' && r.json().data[0].object === 'model',
  });
  const model = models.json().data[0].id;

  const chat = http.post(`${api}/chat/completions`, JSON.stringify({
    model, messages: [{ role: 'user', content: 'Can I return my headphones?' }], temperature: 0,
  }), json);
  check(chat, {
    'chat 200 JSON': (r) => r.status === 200 && r.headers['Content-Type'] === 'application/json',
    'chat.completion': (r) => r.json().object === 'chat.completion' && r.json().model === model,
    'assistant message': (r) => r.json().choices[0].message.role === 'assistant' &&
      r.json().choices[0].message.content.includes('Next step'),
    'finish_reason stop': (r) => r.json().choices[0].finish_reason === 'stop',
    'chat usage adds up': (r) => {
      const u = r.json().usage;
      return u.completion_tokens > 0 && u.total_tokens === u.prompt_tokens + u.completion_tokens;
    },
  });

  const completion = http.post(`${api}/completions`, JSON.stringify({
    model, prompt: 'Once upon a time', max_tokens: 8, stream: false,
  }), json);
  check(completion, {
    'completion 200': (r) => r.status === 200,
    'text_completion': (r) => r.json().object === 'text_completion' && r.json().choices[0].text.length > 0,
    'max_tokens honoured': (r) => r.json().choices[0].finish_reason === 'length' && r.json().usage.completion_tokens === 8,
  });

  // A base URL without /v1 works too: the routes have unversioned aliases.
  const alias = http.post(`${__ENV.BASE_URL}/chat/completions`, JSON.stringify({
    model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 4,
  }), json);
  check(alias, { 'unversioned alias': (r) => r.status === 200 && r.json().usage.completion_tokens === 4 });
}
