// RSA: an spki key verifies a PKCS #1 v1.5 signature made in Go; RSA-OAEP
// and RSA-PSS pairs encrypt, decrypt, sign and verify. The older import
// from k6/experimental/webcrypto gives the same global crypto.
import { check } from 'k6';
import encoding from 'k6/encoding';
import { crypto as experimental } from 'k6/experimental/webcrypto';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

const spki = encoding.b64decode('MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA5cvubpqZv+bAsrkp0ehII1mcUIq6+MOwjh/ECg15igoQbvHgRBEqUyZQ0FeTYPicSf0QzoQME5PRG/YYyL/cpUxuQBxvZpTP5ERlugsTG+NzboI5boRskmA0Z7OXScRyrVhOhipoao2uTLDZvhEoWJWu3DUxsAIGUod3IC42csRnb9jBRRsXwzA3+noIbeK8DrwYdVc5mRp7dPNkFSAZ02eEwkEDiF6XLL3OsJUGHnSOXhxByjowbZrauTR0xXYP+P8elggdndkFCJ9eC2tPZ0n3UyPBLT79tFRUulS54NAhTG1ZrkixAshrz7ULB/t4agcLaNGAy5MyRa3sdKEJIQIDAQAB');
const signature = encoding.b64decode('PecN69As9JP8SCxcCm9HrF8g3yTMd9GDp3T0DOaPuEY9AIPsCV34DE1RIgvv/Boq3U9h2mnDq/O1L0GoCFj09htmxmIAmyyQtZHmvjcF+7tADUwhBFo5sh9/3alC/H388+q1682CWSB5I0/5vFlMPbfOQuA3G7yaj+Rvz0K6XV4Mj+YfOcDang0AbCrMT2UOKQwWNdmt1H3u6zweCcUj9HtBbVpDY07ClAYz9aLDlSEOKdP/e6nHcrayt6btniKtcGYATgU3cDj6NpH1d1OEiQ5K8vR/pP7OF+knWRf3inu1yQ1vqLtb9KPRVliSq8NfsuucFsLpCPbH8UUjzMQXoQ==');

export default async function () {
  check(experimental, { 'k6/experimental/webcrypto exports the global crypto': (c) => c === crypto && typeof c.subtle.sign === 'function' });
  const data = new TextEncoder().encode('signed by Go');
  const publicKey = await crypto.subtle.importKey('spki', spki, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, true, ['verify']);
  check(await crypto.subtle.verify('RSASSA-PKCS1-v1_5', publicKey, signature, data), { "Go's signature verifies": (ok) => ok });

  const gen = (name, usages) => crypto.subtle.generateKey(
    { name, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: { name: 'SHA-256' } }, true, usages);
  const oaep = await gen('RSA-OAEP', ['encrypt', 'decrypt']);
  const ciphertext = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, oaep.publicKey, data);
  const plaintext = new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, oaep.privateKey, ciphertext));
  check(plaintext, { 'RSA-OAEP round trip': (p) => p === 'signed by Go' });

  const pss = await gen('RSA-PSS', ['sign', 'verify']);
  const sig = await crypto.subtle.sign({ name: 'RSA-PSS', saltLength: 32 }, pss.privateKey, data);
  const exported = await crypto.subtle.exportKey('spki', pss.publicKey);
  const verifier = await crypto.subtle.importKey('spki', exported, { name: 'RSA-PSS', hash: 'SHA-256' }, false, ['verify']);
  check(await crypto.subtle.verify({ name: 'RSA-PSS', saltLength: 32 }, verifier, sig, data), { 'RSA-PSS signs and verifies through spki': (ok) => ok });
}
