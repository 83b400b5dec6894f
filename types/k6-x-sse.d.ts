/**
 * Type declarations for `k6/x/sse`: the API of the community xk6-sse
 * extension, which usefullatency runs unchanged (and measures with the
 * usefulsse metrics).
 */
declare module 'k6/x/sse' {
  export interface Params {
    /** HTTP method, default GET. */
    method?: string;
    /** Request body. */
    body?: string;
    headers?: Record<string, string>;
    tags?: Record<string, string>;
    /** Deadline for the whole exchange, e.g. '60s'. */
    timeout?: string | number;
  }

  export interface Event {
    id: string;
    name: string;
    data: string;
    comment: string;
  }

  export interface Error {
    error(): string;
  }

  export interface Client {
    on(event: 'open', handler: () => void): void;
    on(event: 'event', handler: (event: Event) => void): void;
    on(event: 'error', handler: (error: Error) => void): void;
    /** Closes the stream; open() then returns. */
    close(): void;
  }

  export interface Response {
    url: string;
    status: number;
    headers: Record<string, string>;
    error: string;
  }

  export function open(url: string, params: Params | null, setup: (client: Client) => void): Response;
  export function open(url: string, setup: (client: Client) => void): Response;

  const sse: { open: typeof open };
  export default sse;
}
