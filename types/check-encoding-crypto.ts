// Compiles the k6/encoding and k6/crypto declarations against typical uses;
// `make types` runs tsc on it.
import encoding, { b64decode, b64encode } from 'k6/encoding';
import crypto, { Hasher, createHMAC, hmac, randomBytes, sha256 } from 'k6/crypto';

const key: ArrayBuffer = b64decode('AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ', 'rawurl');
const text: string = encoding.b64decode('Zm9vYmFy', 'std', 's');
const parts: string = `${b64encode('{"alg":"HS256"}', 'rawurl')}.${encoding.b64encode(new Uint8Array([1, 2]))}`;
const signature: string = hmac('sha256', key, parts, 'base64rawurl');
const raw: ArrayBuffer = sha256('abc', 'binary');
const hex: string = crypto.md4(raw, 'hex');
const hasher: Hasher = createHMAC('sha512', 'secret').update('a').update(randomBytes(8));
const digest: string = hasher.digest('base64') + crypto.createHash('ripemd160').digest('hex');

export { text, signature, hex, digest };

// The global crypto (Web Crypto), reached through globalThis where the
// k6/crypto import shadows its name.
const ids: Uint32Array = globalThis.crypto.getRandomValues(new Uint32Array(4));
const uuid: string = globalThis.crypto.randomUUID() + ids.length;
export { uuid };
