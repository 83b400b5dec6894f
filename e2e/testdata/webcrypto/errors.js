// Rejections a script can handle: each is an Error with the Web Crypto
// API's name, and the iteration goes on.
import { check } from 'k6';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

async function nameOf(promise) {
  try {
    await promise;
    return 'resolved';
  } catch (e) {
    return e.name;
  }
}

export default async function () {
  const aes = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, false, ['encrypt']);
  check(await nameOf(crypto.subtle.digest('MD5', new Uint8Array(1))), { 'unknown algorithm: NotSupportedError': (n) => n === 'NotSupportedError' });
  check(await nameOf(crypto.subtle.exportKey('raw', aes)), { 'not extractable: InvalidAccessError': (n) => n === 'InvalidAccessError' });
  check(await nameOf(crypto.subtle.decrypt({ name: 'AES-GCM', iv: new Uint8Array(12) }, aes, new Uint8Array(32))),
    { 'no decrypt usage: InvalidAccessError': (n) => n === 'InvalidAccessError' });
  check(await nameOf(crypto.subtle.importKey('raw', new Uint8Array(5), 'AES-GCM', true, ['encrypt'])), { 'bad key: DataError': (n) => n === 'DataError' });
  check(await nameOf(crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, true, ['decrypt'])), { 'bad usage: SyntaxError': (n) => n === 'SyntaxError' });
}
