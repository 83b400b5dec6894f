// A jslib-style remote library, required from the server the test passes
// in LIB: fetched once per run, however many VUs require it.
import { check } from 'k6';

const lib = require(`${__ENV.LIB}/lib/1.0.0/index.js`);

export const options = { vus: 2, iterations: 4, thresholds: { checks: ['rate==1'] } };

export default function () {
  check(null, { 'remote library': () => lib.label() === 'remote function' });
}
