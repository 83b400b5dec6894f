// Declarations of the k6/net/grpc module: a gRPC client for unary calls
// and streams.
declare module 'k6/net/grpc' {
  export interface TLSParams {
    /** The client certificate, PEM. */
    cert?: string;
    /** Its key, PEM (unencrypted). */
    key?: string;
    /** The CAs that replace the system's, PEM. */
    cacerts?: string | string[];
  }

  export interface ConnectParams {
    /** Connect without TLS (default false). */
    plaintext?: boolean;
    /** How long connect() waits: a duration string or milliseconds (default '60s'). */
    timeout?: string | number;
    /** Add the methods the server's reflection service lists. */
    reflect?: boolean;
    reflectMetadata?: Record<string, string>;
    /** The largest message received, bytes (0 or unset: 4 MiB). */
    maxReceiveSize?: number;
    /** The largest message sent, bytes (0 or unset: no limit). */
    maxSendSize?: number;
    /** The :authority of the calls (and the TLS server name). */
    authority?: string;
    tls?: TLSParams;
  }

  export interface Params {
    /** A key ending in '-bin' also takes binary data. */
    metadata?: Record<string, string | string[] | ArrayBuffer | ArrayBufferView>;
    tags?: Record<string, string | number | boolean>;
    /** A duration string or milliseconds (default '2m'; streams: none). */
    timeout?: string | number;
    discardResponseMessage?: boolean;
  }

  /** k6's error object: a status that is not OK. */
  export interface GrpcError {
    code: number;
    message: string;
    details: unknown[];
  }

  export interface Response {
    status: number;
    /** The reply, by proto3's JSON mapping; null unless status is StatusOK. */
    message: any;
    headers: Record<string, string[]>;
    trailers: Record<string, string[]>;
    error: GrpcError | null;
  }

  export class Client {
    constructor();
    load(importPaths: string[] | null, ...protoFiles: string[]): void;
    loadProtoset(protosetPath: string): void;
    connect(address: string, params?: ConnectParams): boolean;
    invoke(method: string, request: object | null, params?: Params): Response;
    asyncInvoke(method: string, request: object | null, params?: Params): Promise<Response>;
    close(): void;
  }

  /** The metadata of a streamed message: when it was received, ms since the epoch. */
  export interface MessageMetadata {
    ts: number;
  }

  export class Stream {
    constructor(client: Client, method: string, params?: Params);
    on(event: 'data', handler: (message: any, metadata: MessageMetadata) => void): void;
    on(event: 'error', handler: (error: GrpcError) => void): void;
    on(event: 'end', handler: () => void): void;
    write(message: object): void;
    end(): void;
  }

  export const StatusOK: number;
  export const StatusCanceled: number;
  export const StatusUnknown: number;
  export const StatusInvalidArgument: number;
  export const StatusDeadlineExceeded: number;
  export const StatusNotFound: number;
  export const StatusAlreadyExists: number;
  export const StatusPermissionDenied: number;
  export const StatusResourceExhausted: number;
  export const StatusFailedPrecondition: number;
  export const StatusAborted: number;
  export const StatusOutOfRange: number;
  export const StatusUnimplemented: number;
  export const StatusInternal: number;
  export const StatusUnavailable: number;
  export const StatusDataLoss: number;
  export const StatusUnauthenticated: number;

  const grpc: {
    Client: typeof Client;
    Stream: typeof Stream;
    StatusOK: number;
    StatusCanceled: number;
    StatusUnknown: number;
    StatusInvalidArgument: number;
    StatusDeadlineExceeded: number;
    StatusNotFound: number;
    StatusAlreadyExists: number;
    StatusPermissionDenied: number;
    StatusResourceExhausted: number;
    StatusFailedPrecondition: number;
    StatusAborted: number;
    StatusOutOfRange: number;
    StatusUnimplemented: number;
    StatusInternal: number;
    StatusUnavailable: number;
    StatusDataLoss: number;
    StatusUnauthenticated: number;
  };
  export default grpc;
}
