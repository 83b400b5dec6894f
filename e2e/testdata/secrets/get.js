// Run with --secret-source=mock=token=abc123: the script gets the secret,
// checks it and logs it; the log must show ***SECRET_REDACTED***, never
// the value.
import { check } from 'k6';
import secrets from 'k6/secrets';

export const options = { iterations: 2, thresholds: { checks: ['rate==1'] } };

export default async function () {
  const token = await secrets.get('token');
  const byName = await secrets.source('mock').get('token');
  check(token, {
    'the default source has the token': (t) => t === 'abc123',
    'the source called after its type has it too': (t) => byName === t,
  });
  console.log(`the token is ${token}`);
  console.warn({ authorization: `Bearer ${token}` });
}
