/**
 * Type declarations for the global `crypto` of the Web Crypto API, as far
 * as it is implemented: getRandomValues and randomUUID (no `subtle` yet).
 */
type IntegerTypedArray =
  | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array
  | Int32Array | Uint32Array | BigInt64Array | BigUint64Array;

interface Crypto {
  /** Fills an integer typed array of at most 65536 bytes with random values and returns it. */
  getRandomValues<T extends IntegerTypedArray>(array: T): T;
  /** Returns a random (version 4) UUID in lower case. */
  randomUUID(): string;
}

declare var crypto: Crypto;
