/**
 * Type declarations for the global `crypto` of the Web Crypto API:
 * getRandomValues, randomUUID and `subtle` with the algorithms usefullatency
 * implements (those of k6, and HKDF). `k6/experimental/webcrypto` exports
 * the same object.
 */
type IntegerTypedArray =
  | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array
  | Int32Array | Uint32Array | BigInt64Array | BigUint64Array;

/** Bytes: an ArrayBuffer or a view of one. Strings are not accepted. */
type BufferSource = ArrayBuffer | ArrayBufferView;

type KeyFormat = 'raw' | 'spki' | 'pkcs8' | 'jwk';
type KeyType = 'secret' | 'public' | 'private';
type KeyUsage = 'encrypt' | 'decrypt' | 'sign' | 'verify' | 'deriveKey' | 'deriveBits' | 'wrapKey' | 'unwrapKey';
type HashName = 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512';
type NamedCurve = 'P-256' | 'P-384' | 'P-521';

/** An algorithm named by a string or an object with a name (any letter case). */
interface Algorithm { name: string }
type AlgorithmIdentifier = string | Algorithm;
type HashAlgorithmIdentifier = HashName | string | { name: HashName | string };

interface HmacKeyGenParams extends Algorithm { hash: HashAlgorithmIdentifier; length?: number }
type HmacImportParams = HmacKeyGenParams;
interface AesKeyGenParams extends Algorithm { length: 128 | 192 | 256 | number }
interface AesGcmParams extends Algorithm { iv: BufferSource; additionalData?: BufferSource; tagLength?: number }
interface AesCbcParams extends Algorithm { iv: BufferSource }
interface AesCtrParams extends Algorithm { counter: BufferSource; length: number }
interface EcKeyGenParams extends Algorithm { namedCurve: NamedCurve | string }
type EcKeyImportParams = EcKeyGenParams;
interface EcdsaParams extends Algorithm { hash: HashAlgorithmIdentifier }
interface EcdhKeyDeriveParams extends Algorithm { public: CryptoKey }
interface RsaHashedKeyGenParams extends Algorithm {
  modulusLength: number;
  /** Big-endian; only 65537 (`new Uint8Array([1, 0, 1])`) is supported. */
  publicExponent: Uint8Array;
  hash: HashAlgorithmIdentifier;
}
interface RsaHashedImportParams extends Algorithm { hash: HashAlgorithmIdentifier }
interface RsaPssParams extends Algorithm { saltLength: number }
interface RsaOaepParams extends Algorithm { label?: BufferSource }
interface Pbkdf2Params extends Algorithm { salt: BufferSource; iterations: number; hash: HashAlgorithmIdentifier }
interface HkdfParams extends Algorithm { hash: HashAlgorithmIdentifier; salt: BufferSource; info: BufferSource }

/** The algorithm member of a CryptoKey: the members its family has. */
interface KeyAlgorithm {
  name: string;
  length?: number;
  hash?: { name: string };
  namedCurve?: string;
  modulusLength?: number;
  publicExponent?: Uint8Array;
}

interface CryptoKey {
  readonly type: KeyType;
  readonly extractable: boolean;
  readonly algorithm: KeyAlgorithm;
  readonly usages: KeyUsage[];
}

interface CryptoKeyPair {
  publicKey: CryptoKey;
  privateKey: CryptoKey;
}

/** A JSON Web Key (RFC 7517): oct, EC, OKP and RSA members. */
interface JsonWebKey {
  kty?: string;
  alg?: string;
  use?: string;
  key_ops?: string[];
  ext?: boolean;
  crv?: string;
  k?: string;
  x?: string;
  y?: string;
  d?: string;
  n?: string;
  e?: string;
  p?: string;
  q?: string;
  dp?: string;
  dq?: string;
  qi?: string;
}

type SignParams = AlgorithmIdentifier | EcdsaParams | RsaPssParams;
type CipherParams = AesGcmParams | AesCbcParams | AesCtrParams | RsaOaepParams;
type DeriveParams = EcdhKeyDeriveParams | Pbkdf2Params | HkdfParams;
type ImportParams = AlgorithmIdentifier | HmacImportParams | EcKeyImportParams | RsaHashedImportParams;

/** Every method returns a Promise settled on the VU's event loop. */
interface SubtleCrypto {
  digest(algorithm: AlgorithmIdentifier, data: BufferSource): Promise<ArrayBuffer>;
  generateKey(algorithm: HmacKeyGenParams | AesKeyGenParams, extractable: boolean, keyUsages: KeyUsage[]): Promise<CryptoKey>;
  generateKey(algorithm: EcKeyGenParams | RsaHashedKeyGenParams | AlgorithmIdentifier, extractable: boolean, keyUsages: KeyUsage[]): Promise<CryptoKeyPair>;
  importKey(format: 'jwk', keyData: JsonWebKey, algorithm: ImportParams, extractable: boolean, keyUsages: KeyUsage[]): Promise<CryptoKey>;
  importKey(format: Exclude<KeyFormat, 'jwk'>, keyData: BufferSource, algorithm: ImportParams, extractable: boolean, keyUsages: KeyUsage[]): Promise<CryptoKey>;
  exportKey(format: 'jwk', key: CryptoKey): Promise<JsonWebKey>;
  exportKey(format: Exclude<KeyFormat, 'jwk'>, key: CryptoKey): Promise<ArrayBuffer>;
  encrypt(algorithm: CipherParams, key: CryptoKey, data: BufferSource): Promise<ArrayBuffer>;
  decrypt(algorithm: CipherParams, key: CryptoKey, data: BufferSource): Promise<ArrayBuffer>;
  sign(algorithm: SignParams, key: CryptoKey, data: BufferSource): Promise<ArrayBuffer>;
  verify(algorithm: SignParams, key: CryptoKey, signature: BufferSource, data: BufferSource): Promise<boolean>;
  /** length in bits; null (ECDH, X25519) derives the whole secret. */
  deriveBits(algorithm: DeriveParams, baseKey: CryptoKey, length?: number | null): Promise<ArrayBuffer>;
  deriveKey(algorithm: DeriveParams, baseKey: CryptoKey, derivedKeyType: AesKeyGenParams | HmacImportParams,
    extractable: boolean, keyUsages: KeyUsage[]): Promise<CryptoKey>;
}

interface Crypto {
  /** Fills an integer typed array of at most 65536 bytes with random values and returns it. */
  getRandomValues<T extends IntegerTypedArray>(array: T): T;
  /** Returns a random (version 4) UUID in lower case. */
  randomUUID(): string;
  readonly subtle: SubtleCrypto;
}

declare var crypto: Crypto;

declare module 'k6/experimental/webcrypto' {
  /** The global crypto, as older k6 scripts import it. */
  const crypto: Crypto;
  export { crypto };
  const webcrypto: { crypto: Crypto };
  export default webcrypto;
}
