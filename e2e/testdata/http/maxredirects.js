// The maxRedirects option (script, K6_MAX_REDIRECTS or --max-redirects)
// is the default of k6/http's redirects param: WANT is the status the
// script expects from /old, 302 when no redirect is followed.
import http from 'k6/http';
import { check } from 'k6';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };
if (__ENV.SCRIPT_MAX_REDIRECTS) options.maxRedirects = Number(__ENV.SCRIPT_MAX_REDIRECTS);

export default function () {
  const res = http.get(`${__ENV.BASE}/old`);
  check(res, { 'status is WANT': (r) => r.status === Number(__ENV.WANT) });
}
