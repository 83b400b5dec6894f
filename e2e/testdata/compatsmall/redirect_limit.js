// Two iterations that each follow 10 redirects of BASE/redirect/11, get
// the 11th redirect back (k6 warns once per request when no limit was set)
// and then throw, which k6 counts as a complete iteration.
import http from 'k6/http';

export const options = { vus: 1, iterations: 2 };

export default function () {
  const r = http.get(`${__ENV.BASE}/redirect/11`);
  if (r.status !== 302) {
    throw new Error(`status ${r.status}, want the 11th redirect (302)`);
  }
  throw new Error('thrown on purpose');
}
