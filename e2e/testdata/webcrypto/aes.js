// AES: GCM, CBC and CTR keys generated, exported and re-imported
// encrypt and decrypt; a raw base64 key decrypts a ciphertext made in Go.
import { check } from 'k6';
import encoding from 'k6/encoding';

export const options = { iterations: 2, thresholds: { checks: ['rate==1'] } };

const params = (name) => ({
  'AES-GCM': { name, iv: crypto.getRandomValues(new Uint8Array(12)) },
  'AES-CBC': { name, iv: crypto.getRandomValues(new Uint8Array(16)) },
  'AES-CTR': { name, counter: crypto.getRandomValues(new Uint8Array(16)), length: 64 },
})[name];

export default async function () {
  const plaintext = new TextEncoder().encode('Hello, World!');
  for (const name of ['AES-GCM', 'AES-CBC', 'AES-CTR']) {
    const key = await crypto.subtle.generateKey({ name, length: 256 }, true, ['encrypt', 'decrypt']);
    const p = params(name);
    const ciphertext = await crypto.subtle.encrypt(p, key, plaintext);
    const jwk = await crypto.subtle.exportKey('jwk', key);
    const again = await crypto.subtle.importKey('jwk', jwk, { name }, false, ['decrypt']);
    const decrypted = new TextDecoder().decode(await crypto.subtle.decrypt(p, again, ciphertext));
    check(decrypted, { [`${name} round trip`]: (d) => d === 'Hello, World!' });
  }

  const raw = encoding.b64decode('azYtc3R5bGUgc3RhdGljIEFFUy0yNTYga2V5IDMyYiE=');
  const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-GCM', length: 256 }, false, ['decrypt']);
  const ciphertext = encoding.b64decode('FWmgavbKVTvpbpTZN7bi0Cc2ciErhQz4vw5gSyyZL9UujUKQHkJUIQ==');
  const iv = new TextEncoder().encode('twelve bytes');
  const message = new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, ciphertext));
  check(message, { 'decrypts what Go encrypted': (m) => m === 'a secret message from Go' });
}
