// Declarations of the k6/websockets module (also importable as
// k6/experimental/websockets): the browser's WebSocket with k6's params.
declare module 'k6/websockets' {
  /** The params of the constructor. */
  export interface Params {
    /** Headers of the upgrade request. */
    headers?: Record<string, string>;
    /** Tags of the socket's ws_* samples. */
    tags?: Record<string, string | number | boolean>;
    /** The jar of the handshake's cookies; null for none; by default the VU's. */
    jar?: import('k6/http').CookieJar | null;
    /** 'deflate' offers permessage-deflate. */
    compression?: 'deflate' | '';
    /** This build's limit on a received message: bytes or a size like '16MiB' (default 64 MiB). */
    maxMessageSize?: number | string;
  }

  /** Immutable bytes: a binary message when binaryType is 'blob'. */
  export class Blob {
    constructor(parts?: Array<string | ArrayBuffer | ArrayBufferView | Blob>, options?: { type?: string });
    readonly size: number;
    readonly type: string;
    text(): Promise<string>;
    arrayBuffer(): Promise<ArrayBuffer>;
    bytes(): Promise<Uint8Array>;
    slice(start?: number, end?: number, contentType?: string): Blob;
  }

  /** What every event carries. */
  export interface Event {
    type: string;
    target: WebSocket;
    /** Milliseconds since the epoch. */
    timestamp: number;
  }
  export interface MessageEvent extends Event {
    /** A string for text, a Blob or an ArrayBuffer (binaryType) for binary. */
    data: string | Blob | ArrayBuffer;
  }
  export interface CloseEvent extends Event {
    code: number;
    reason: string;
    wasClean: boolean;
  }
  export interface ErrorEvent extends Event {
    error: string;
    message: string;
  }
  interface EventMap {
    open: Event;
    message: MessageEvent;
    error: ErrorEvent;
    close: CloseEvent;
    ping: Event;
    pong: Event;
  }

  export class WebSocket {
    constructor(url: string, protocols?: string | string[] | null, params?: Params | null);
    static readonly CONNECTING: 0;
    static readonly OPEN: 1;
    static readonly CLOSING: 2;
    static readonly CLOSED: 3;
    readonly CONNECTING: 0;
    readonly OPEN: 1;
    readonly CLOSING: 2;
    readonly CLOSED: 3;
    readonly url: string;
    readonly readyState: 0 | 1 | 2 | 3;
    readonly protocol: string;
    readonly extensions: string;
    readonly bufferedAmount: number;
    binaryType: 'blob' | 'arraybuffer';
    onopen: ((e: Event) => void) | null;
    onmessage: ((e: MessageEvent) => void) | null;
    onerror: ((e: ErrorEvent) => void) | null;
    onclose: ((e: CloseEvent) => void) | null;
    onping: ((e: Event) => void) | null;
    onpong: ((e: Event) => void) | null;
    /** Throws InvalidStateError before the socket opened; dropped once it is closing. */
    send(data: string | ArrayBuffer | ArrayBufferView | Blob): void;
    /** code 1000 by default; reason at most 123 bytes. */
    close(code?: number, reason?: string): void;
    ping(): void;
    addEventListener<K extends keyof EventMap>(type: K, listener: (e: EventMap[K]) => void): void;
    removeEventListener<K extends keyof EventMap>(type: K, listener: (e: EventMap[K]) => void): void;
  }
}

declare module 'k6/experimental/websockets' {
  export * from 'k6/websockets';
}
