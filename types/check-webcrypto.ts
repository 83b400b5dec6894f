// Compiles the crypto.subtle declarations against typical uses; `make
// types` runs tsc on it.
import { crypto as experimental } from 'k6/experimental/webcrypto';

export async function webcrypto(): Promise<boolean> {
  const subtle = crypto.subtle;
  const data = new TextEncoder().encode('data');
  const digest: ArrayBuffer = await subtle.digest('SHA-256', data);
  const hmac: CryptoKey = await subtle.generateKey({ name: 'HMAC', hash: { name: 'SHA-256' } }, true, ['sign', 'verify']);
  const mac = await subtle.sign('HMAC', hmac, data);
  const aes = await subtle.importKey('raw', new Uint8Array(32), { name: 'AES-GCM' }, true, ['encrypt', 'decrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await subtle.encrypt({ name: 'AES-GCM', iv, additionalData: data }, aes, new DataView(digest));
  const jwk: JsonWebKey = await subtle.exportKey('jwk', aes);
  const pair: CryptoKeyPair = await experimental.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const sig = await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, sealed);
  const spki: ArrayBuffer = await subtle.exportKey('spki', pair.publicKey);
  const rsa = await subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['encrypt', 'decrypt']);
  const password = await subtle.importKey('raw', data, 'PBKDF2', false, ['deriveKey']);
  const derived: CryptoKey = await subtle.deriveKey({ name: 'PBKDF2', salt: iv, iterations: 1000, hash: 'SHA-256' }, password,
    { name: 'AES-CBC', length: 256 }, false, ['encrypt']);
  const bits: ArrayBuffer = await subtle.deriveBits({ name: 'ECDH', public: pair.publicKey }, pair.privateKey, null);
  return (jwk.k !== undefined && mac.byteLength > 0 && spki.byteLength > 0 && bits.byteLength >= 0 && derived.algorithm.length === 256 &&
    (await subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, pair.publicKey, sig, sealed)) && 'privateKey' in rsa);
}
