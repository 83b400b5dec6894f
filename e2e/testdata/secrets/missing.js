// A missing secret rejects the promise with k6's message; uncaught, the
// rejection is the iteration's error and the run goes on.
import { check } from 'k6';
import secrets from 'k6/secrets';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

export default async function () {
  let err = '';
  try {
    await secrets.get('nope');
  } catch (e) {
    err = String(e);
  }
  check(err, { "a missing key rejects with k6's message": (e) => e === 'no value' });
  await secrets.source('elsewhere').get('token');
}
