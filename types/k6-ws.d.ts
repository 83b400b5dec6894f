// Declarations of the k6/ws module, k6's legacy WebSocket API.
declare module 'k6/ws' {
  export interface Params {
    headers?: Record<string, string>;
    tags?: Record<string, string | number | boolean>;
    jar?: import('k6/http').CookieJar | null;
    compression?: 'deflate' | '';
    /** This build's limit on a received message: bytes or a size like '16MiB' (default 64 MiB). */
    maxMessageSize?: number | string;
  }

  /** The handshake's response; status 0 and error set when it failed. */
  export interface Response {
    url: string;
    status: number;
    headers: Record<string, string>;
    body: string;
    error: string;
  }

  export interface Socket {
    on(event: 'open' | 'ping' | 'pong', handler: () => void): void;
    on(event: 'message', handler: (data: string) => void): void;
    on(event: 'binaryMessage', handler: (data: ArrayBuffer) => void): void;
    on(event: 'close', handler: (code: number) => void): void;
    on(event: 'error', handler: (e: { error(): string }) => void): void;
    send(data: string): void;
    sendBinary(data: ArrayBuffer | ArrayBufferView): void;
    ping(): void;
    close(code?: number): void;
    setTimeout(callback: () => void, delay: number): void;
    setInterval(callback: () => void, interval: number): void;
  }

  export function connect(url: string, callback: (socket: Socket) => void): Response;
  export function connect(url: string, params: Params | null, callback: (socket: Socket) => void): Response;

  const ws: { connect: typeof connect };
  export default ws;
}
