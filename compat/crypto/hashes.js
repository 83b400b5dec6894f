// compat: k6/crypto — hashes and HMAC in hex, base64 and binary; createHash/createHMAC with update and digest
import { check } from 'k6';
import crypto from 'k6/crypto';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

export default function () {
  check(crypto, {
    'md5': (c) => c.md5('hello', 'hex') === '5d41402abc4b2a76b9719d911017c592',
    'sha1': (c) => c.sha1('hello', 'hex') === 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d',
    'sha256': (c) => c.sha256('hello', 'hex') === '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
    'sha256 base64': (c) => c.sha256('hello', 'base64') === 'LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=',
    'sha512 length': (c) => c.sha512('hello', 'hex').length === 128,
    'hmac sha256': (c) => c.hmac('sha256', 'key', 'The quick brown fox jumps over the lazy dog', 'hex') ===
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    'createHash in parts': (c) => {
      const h = c.createHash('sha256');
      h.update('hel');
      h.update('lo');
      return h.digest('hex') === c.sha256('hello', 'hex');
    },
    'binary output is an ArrayBuffer': (c) => c.md5('hello', 'binary').byteLength === 16,
    'randomBytes': (c) => c.randomBytes(12).byteLength === 12,
  });
}
