// k6/encoding and k6/crypto as scripts use them: signing a JWS (the HS256
// example of RFC 7515, appendix A.1), hashing and HMACs in every output
// encoding, the errors bad arguments throw, and the global crypto's
// randomUUID and getRandomValues. Every check must pass.
import { check } from 'k6';
import encoding, { b64decode, b64encode } from 'k6/encoding';
import crypto, { createHMAC, hmac, randomBytes, sha256 } from 'k6/crypto';

export const options = {
  iterations: 2,
  thresholds: { checks: ['rate==1'] },
};

// The JWS of RFC 7515, appendix A.1: its key, its two encoded parts (the
// header and the payload have CRLF line breaks) and its signature.
const jwkKey = 'AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow';
const header = '{"typ":"JWT",\r\n "alg":"HS256"}';
const payload = '{"iss":"joe",\r\n "exp":1300819380,\r\n "http://example.com/is_root":true}';
const signingInput = 'eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9'
  + '.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ';
const signature = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

function throws(fn, text) {
  try {
    fn();
  } catch (e) {
    return String(e).includes(text);
  }
  return false;
}

export default function () {
  const key = b64decode(jwkKey, 'rawurl');
  check(key, {
    'the key decodes to 64 bytes': (k) => k instanceof ArrayBuffer && k.byteLength === 64,
    'the JWS parts encode as in the RFC': () =>
      `${b64encode(header, 'rawurl')}.${encoding.b64encode(payload, 'rawurl')}` === signingInput,
    'hmac signs the JWS': () => hmac('sha256', key, signingInput, 'base64rawurl') === signature,
    'createHMAC signs it in pieces': () => {
      const [h, p] = signingInput.split('.');
      return createHMAC('sha256', key).update(h).update('.').update(p).digest('base64rawurl') === signature;
    },
  });
  check(null, {
    'sha256 hex (FIPS 180)': () => sha256('abc', 'hex') === 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    'md4 (RFC 1320)': () => crypto.md4('abc', 'hex') === 'a448017aaf21d8525fc10ae87aa6729d',
    'ripemd160 of an ArrayBuffer': () =>
      crypto.ripemd160(new Uint8Array([0x61, 0x62, 0x63]).buffer, 'hex') === '8eb208f7e05d987a9b044a8e98c6b087f15a0bfc',
    'binary digest round-trips through base64': () =>
      b64encode(crypto.sha1('abc', 'binary')) === crypto.sha1('abc', 'base64'),
    'decode to a string': () => encoding.b64decode('Zm9vYmFy', 'std', 's') === 'foobar',
    'randomBytes': () => randomBytes(16).byteLength === 16,
    'an unknown encoding throws': () => throws(() => b64encode('x', 'base32'), 'unknown encoding "base32"'),
    'bad base64 throws': () => throws(() => b64decode('Zm9v!'), 'not "std" base64'),
    'an unknown algorithm throws': () => throws(() => crypto.createHash('sha3'), 'unknown algorithm "sha3"'),
    // The global crypto (Web Crypto); the import above shadows its name.
    'global crypto.randomUUID': () => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(globalThis.crypto.randomUUID()),
    'global crypto.getRandomValues': () => globalThis.crypto.getRandomValues(new Uint32Array(8)).some((x) => x !== 0),
  });
}
