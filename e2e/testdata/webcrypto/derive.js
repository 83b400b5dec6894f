// Key agreement and derivation: ECDH and X25519 shared secrets agree on
// both sides; PBKDF2 derives an AES-GCM key and the RFC 6070 bits.
import { check } from 'k6';

export const options = { iterations: 2, thresholds: { checks: ['rate==1'] } };

const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

async function agree(alg, length) {
  const alice = await crypto.subtle.generateKey(alg, true, ['deriveKey', 'deriveBits']);
  const bob = await crypto.subtle.generateKey(alg, true, ['deriveKey', 'deriveBits']);
  const a = await crypto.subtle.deriveBits({ name: alg.name, public: bob.publicKey }, alice.privateKey, length);
  const b = await crypto.subtle.deriveBits({ name: alg.name, public: alice.publicKey }, bob.privateKey, length);
  return hex(a) === hex(b) && a.byteLength === length / 8;
}

export default async function () {
  check(await agree({ name: 'ECDH', namedCurve: 'P-256' }, 256), { 'ECDH secrets agree': (ok) => ok });
  check(await agree({ name: 'X25519' }, 256), { 'X25519 secrets agree': (ok) => ok });

  const password = await crypto.subtle.importKey('raw', new TextEncoder().encode('password'), 'PBKDF2', false, ['deriveBits', 'deriveKey']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', salt: new TextEncoder().encode('salt'), iterations: 2, hash: 'SHA-1' }, password, 160);
  check(hex(bits), { 'PBKDF2 gives RFC 6070': (h) => h === 'ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957' });
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await crypto.subtle.deriveKey({ name: 'PBKDF2', salt, iterations: 10000, hash: 'SHA-256' }, password,
    { name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
  check(key, { 'PBKDF2 derives an AES-GCM key': (k) => k.algorithm.name === 'AES-GCM' && k.algorithm.length === 256 && k.usages.join() === 'encrypt,decrypt' });
}
