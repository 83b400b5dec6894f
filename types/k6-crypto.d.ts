/**
 * Type declarations for `k6/crypto`: hashes, HMACs and random bytes, as k6
 * documents them.
 */
declare module 'k6/crypto' {
  /** A hash function. */
  export type Algorithm =
    | 'md4' | 'md5' | 'sha1' | 'sha256' | 'sha384' | 'sha512' | 'sha512_224' | 'sha512_256' | 'ripemd160';

  /** Text encodings of a digest: lower-case hex, or base64 (RFC 4648) padded, URL-safe padded, URL-safe unpadded. */
  export type TextEncoding = 'hex' | 'base64' | 'base64url' | 'base64rawurl';
  /** How a digest is returned: text, or the raw bytes as an ArrayBuffer ('binary'). */
  export type OutputEncoding = TextEncoding | 'binary';

  /** Text (encoded as UTF-8) or bytes: an ArrayBuffer or a view of one. */
  export type Input = string | ArrayBuffer | ArrayBufferView;

  /** The digest in the output encoding: an ArrayBuffer for 'binary', a string otherwise. */
  export type Digest<E extends OutputEncoding> = E extends 'binary' ? ArrayBuffer : string;

  /** A hash or an HMAC fed piece by piece. */
  export interface Hasher {
    /** Adds input to the data and returns this Hasher. */
    update(input: Input): Hasher;
    /** Returns the digest of the data so far; the Hasher stays usable. */
    digest<E extends OutputEncoding>(outputEncoding: E): Digest<E>;
  }

  export function md4<E extends OutputEncoding>(input: Input, outputEncoding: E): Digest<E>;
  export function md5<E extends OutputEncoding>(input: Input, outputEncoding: E): Digest<E>;
  export function sha1<E extends OutputEncoding>(input: Input, outputEncoding: E): Digest<E>;
  export function sha256<E extends OutputEncoding>(input: Input, outputEncoding: E): Digest<E>;
  export function sha384<E extends OutputEncoding>(input: Input, outputEncoding: E): Digest<E>;
  export function sha512<E extends OutputEncoding>(input: Input, outputEncoding: E): Digest<E>;
  export function sha512_224<E extends OutputEncoding>(input: Input, outputEncoding: E): Digest<E>;
  export function sha512_256<E extends OutputEncoding>(input: Input, outputEncoding: E): Digest<E>;
  export function ripemd160<E extends OutputEncoding>(input: Input, outputEncoding: E): Digest<E>;

  /** Returns the HMAC (RFC 2104) of data keyed by secret. */
  export function hmac<E extends OutputEncoding>(algorithm: Algorithm, secret: Input, data: Input, outputEncoding: E): Digest<E>;
  /** Returns a Hasher of the algorithm. */
  export function createHash(algorithm: Algorithm): Hasher;
  /** Returns a Hasher of the HMAC of the algorithm keyed by secret. */
  export function createHMAC(algorithm: Algorithm, secret: Input): Hasher;
  /** Returns size cryptographically secure random bytes. */
  export function randomBytes(size: number): ArrayBuffer;

  const crypto: {
    md4: typeof md4;
    md5: typeof md5;
    sha1: typeof sha1;
    sha256: typeof sha256;
    sha384: typeof sha384;
    sha512: typeof sha512;
    sha512_224: typeof sha512_224;
    sha512_256: typeof sha512_256;
    ripemd160: typeof ripemd160;
    hmac: typeof hmac;
    createHash: typeof createHash;
    createHMAC: typeof createHMAC;
    randomBytes: typeof randomBytes;
  };
  export default crypto;
}
