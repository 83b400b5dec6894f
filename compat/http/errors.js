// compat: k6/http — a network failure is a response with status 0 and k6's error_code (1212 connection refused, 1000-range), never an exception; bad params throw
import { check } from 'k6';
import http from 'k6/http';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'], http_req_failed: ['rate==1'] } };

export default function () {
  const refused = http.get('http://127.0.0.1:1/');
  check(refused, {
    'status 0': (r) => r.status === 0,
    'error_code 1212 (connection refused)': (r) => r.error_code === 1212,
    'error message set': (r) => typeof r.error === 'string' && r.error.length > 0,
  });
  let threw = '';
  try {
    http.get(`${__ENV.ECHO}/anything`, { nosuchparam: 1 });
  } catch (e) {
    threw = String(e);
  }
  check(threw, { 'an unknown param throws, naming it': (m) => m.includes('nosuchparam') });
}
