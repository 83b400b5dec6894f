// A k6 HTTP script against __ENV.BASE: a redirect, a slow page, a missing
// page, a login whose cookie the next request carries, and a batch of two;
// checks on the responses, and the thresholds given as JSON in
// __ENV.THRESHOLDS.
import http from 'k6/http';
import { check } from 'k6';

export const options = {
  iterations: 3,
  thresholds: JSON.parse(__ENV.THRESHOLDS || '{}'),
};

export default function () {
  const home = http.get(`${__ENV.BASE}/old`, { tags: { name: 'home' } });
  check(home, {
    'home is 200 after the redirect': (r) => r.status === 200,
    'home url is the new one': (r) => r.url === `${__ENV.BASE}/new`,
  });
  const slow = http.post(`${__ENV.BASE}/slow`, { q: 'x' }, { tags: { name: 'slow' } });
  check(slow, { 'slow echoes the form': (r) => r.json('form') === 'q=x' });
  const missing = http.get(`${__ENV.BASE}/missing`);
  check(missing, { 'missing is 404 with code 1404': (r) => r.status === 404 && r.error_code === 1404 });
  http.post(`${__ENV.BASE}/login`, { user: 'ada' });
  check(http.get(`${__ENV.BASE}/me`), { 'the session cookie is sent': (r) => r.body === 'ada' });
  const [a, b] = http.batch([`${__ENV.BASE}/new`, ['GET', `${__ENV.BASE}/me`]]);
  check(a, { 'batch answers in order': (r) => r.body === 'home' && b.body === 'ada' });
}
