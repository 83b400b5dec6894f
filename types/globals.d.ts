// Declarations of the web globals every script sees: the timers,
// TextEncoder/TextDecoder (utf-8), URL, URLSearchParams and
// structuredClone. The compiler's lib is ES2020 without DOM, so they are
// declared here.
declare function setTimeout<A extends unknown[]>(callback: (...args: A) => void, delay?: number, ...args: A): number;
declare function clearTimeout(id?: number): void;
declare function setInterval<A extends unknown[]>(callback: (...args: A) => void, delay?: number, ...args: A): number;
declare function clearInterval(id?: number): void;

declare class TextEncoder {
  readonly encoding: 'utf-8';
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}

declare class TextDecoder {
  /** Only utf-8 and its labels are supported; other labels throw a RangeError. */
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  readonly encoding: 'utf-8';
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  decode(input?: ArrayBufferLike | ArrayBufferView, options?: { stream?: boolean }): string;
}

declare class URLSearchParams implements Iterable<[string, string]> {
  constructor(init?: string | Iterable<[string, string]> | Record<string, string | number | boolean> | URLSearchParams);
  readonly size: number;
  append(name: string, value: string): void;
  delete(name: string, value?: string): void;
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string, value?: string): boolean;
  set(name: string, value: string): void;
  sort(): void;
  forEach(callback: (value: string, name: string, params: URLSearchParams) => void, thisArg?: unknown): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
  toString(): string;
}

declare class URL {
  constructor(url: string | URL, base?: string | URL);
  static canParse(url: string | URL, base?: string | URL): boolean;
  href: string;
  readonly origin: string;
  protocol: string;
  username: string;
  password: string;
  host: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  readonly searchParams: URLSearchParams;
  hash: string;
  toString(): string;
  toJSON(): string;
}

/** Deep-copies plain data: objects, arrays, Date, RegExp, Map, Set, ArrayBuffer and typed arrays; functions throw. */
declare function structuredClone<T>(value: T): T;
