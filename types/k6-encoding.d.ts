/**
 * Type declarations for `k6/encoding`: base64 encoding and decoding
 * (RFC 4648), as k6 documents them.
 */
declare module 'k6/encoding' {
  /**
   * A base64 variant: `std` (the default, padded), `rawstd` (unpadded),
   * `url` (the URL- and filename-safe alphabet, padded), `rawurl` (url,
   * unpadded).
   */
  export type Base64Encoding = 'std' | 'rawstd' | 'url' | 'rawurl';

  /** Text (encoded as UTF-8) or bytes: an ArrayBuffer or a view of one. */
  export type Input = string | ArrayBuffer | ArrayBufferView;

  /** Returns the base64 text of input. */
  export function b64encode(input: Input, encoding?: Base64Encoding): string;

  /** Returns the bytes base64 text decodes to, as a string when format is 's'. */
  export function b64decode(input: Input, encoding: Base64Encoding | '' | undefined, format: 's'): string;
  /** Returns the bytes base64 text decodes to, as an ArrayBuffer. */
  export function b64decode(input: Input, encoding?: Base64Encoding | '', format?: string): ArrayBuffer;

  const encoding: {
    b64encode: typeof b64encode;
    b64decode: typeof b64decode;
  };
  export default encoding;
}
