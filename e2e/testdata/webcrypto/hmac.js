// HMAC: a generated key signs and verifies; a static JWK key imports and
// gives the MAC k6/crypto computes.
import { check } from 'k6';
import k6crypto from 'k6/crypto';

export const options = { iterations: 2, thresholds: { checks: ['rate==1'] } };

const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

export default async function () {
  const data = new TextEncoder().encode('payload to sign');
  const key = await crypto.subtle.generateKey({ name: 'HMAC', hash: { name: 'SHA-512' } }, true, ['sign', 'verify']);
  const signature = await crypto.subtle.sign('HMAC', key, data);
  check(await crypto.subtle.verify('HMAC', key, signature, data), { 'generated key verifies its signature': (ok) => ok === true });

  const jwk = { kty: 'oct', k: 'c2VjcmV0LWtleS1zZWNyZXQta2V5', alg: 'HS256', ext: true, key_ops: ['sign', 'verify'] };
  const imported = await crypto.subtle.importKey('jwk', jwk, { name: 'HMAC', hash: 'SHA-256' }, true, ['sign']);
  const mac = hex(await crypto.subtle.sign('HMAC', imported, data));
  check(mac, { 'static JWK key gives k6/crypto hmac': (m) => m === k6crypto.hmac('sha256', 'secret-key-secret-key', 'payload to sign', 'hex') });
  const exported = await crypto.subtle.exportKey('jwk', imported);
  check(exported, { 'exported JWK is the imported one': (e) => e.k === jwk.k && e.alg === 'HS256' && e.kty === 'oct' });
}
