// ECDSA: an spki public key verifies a signature made in Go (and not a
// changed message); a generated pair signs and verifies through JWK.
import { check } from 'k6';
import encoding from 'k6/encoding';

export const options = { iterations: 2, thresholds: { checks: ['rate==1'] } };

const spki = encoding.b64decode('MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEcsPYBKcCZJQt7tIlPnZVYQT9xAt78mF4C2r4QEIDgxUmWkU5z53otxdJSYp0bUJ1PzB3RcgY2jLmZr2N7A8m1g==');
const signature = encoding.b64decode('rZV33R1yeZharvhneyC5RlzYNFNIpkRZIXsdeVSKO+aaP0XkWMDHGsaWpmjG8SYQmyAlVpccK6wfFmIEk25Zvg==');

export default async function () {
  const alg = { name: 'ECDSA', hash: 'SHA-256' };
  const publicKey = await crypto.subtle.importKey('spki', spki, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
  const data = new TextEncoder().encode('signed by Go');
  check(await crypto.subtle.verify(alg, publicKey, signature, data), { "Go's signature verifies": (ok) => ok });
  check(await crypto.subtle.verify(alg, publicKey, signature, new TextEncoder().encode('signed by k6')), { 'another message does not': (ok) => !ok });

  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify']);
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const verifier = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-384' }, false, ['verify']);
  const sig = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-384' }, pair.privateKey, data);
  check(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, verifier, sig, data), { 'JWK round trip verifies': (ok) => ok });
}
