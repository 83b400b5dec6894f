/**
 * Type declarations for `k6/http` as usefullatency implements it: k6's
 * request functions, response object, batch, asyncRequest and response
 * callbacks, cookie jars, http.file (multipart bodies) and http.url
 * templates.
 */
declare module 'k6/http' {
  /** A file part of a multipart body, from http.file(). */
  export interface FileData {
    data: string | ArrayBuffer | ArrayBufferView;
    filename: string;
    content_type: string;
  }

  /** A request body: a string, bytes, a form object (URL-encoded; multipart when a value is an http.file) or none. */
  export type RequestBody = string | ArrayBuffer | ArrayBufferView | Record<string, string | number | boolean | FileData | Array<string | number>> | null | undefined;

  /** What http.url`…` returns: the URL and its name tag, the template with ${} placeholders. */
  export interface URLTemplate {
    url: string;
    name: string;
  }

  /** Statuses a response callback counts as expected; from expectedStatuses(). */
  export interface ExpectedStatuses {
    readonly __expectedStatuses: unique symbol;
  }

  export interface Params {
    headers?: Record<string, string>;
    /** Tags of the request's samples; `name` replaces the URL in the name tag. */
    tags?: Record<string, string>;
    /** Timeout of the whole request, redirects included: a duration string or milliseconds; default 60s. */
    timeout?: string | number;
    /** Redirects to follow; default the maxRedirects option (10). 0 returns the redirect response. */
    redirects?: number;
    /** How the body is returned: text (default), binary (ArrayBuffer) or none (null). */
    responseType?: 'text' | 'binary' | 'none';
    /** Authentication with the credentials in the URL: basic (the default) or digest. */
    auth?: 'basic' | 'digest';
    /** Compress the body with these codings, in order, comma separated; sets Content-Encoding. */
    compression?: string;
    /** Expected statuses for http_req_failed and the expected_response tag; null for none. */
    responseCallback?: ExpectedStatuses | null;
    /** Cookies of this request; replace: true takes the place of the jar's cookie of the same name. */
    cookies?: Record<string, string | { value: string; replace?: boolean }>;
    /** The jar to use instead of the VU's; null for none. */
    jar?: CookieJar | null;
    /** This build's own: largest response body, bytes or '64MiB' (default); more sets error and error_code 1000. */
    maxResponseSize?: number | string;
    /** This build's own: headers dropped on a redirect to another host or scheme, besides the credential headers. */
    sensitiveHeaders?: string[];
    /** This build's own: lets a redirect go from https to http; default false. */
    allowInsecureRedirect?: boolean;
  }

  export interface CookieOptions {
    domain?: string;
    path?: string;
    /** An HTTP date, e.g. "Wed, 21 Oct 2026 07:28:00 GMT". */
    expires?: string;
    /** Seconds. */
    max_age?: number;
    secure?: boolean;
    http_only?: boolean;
  }

  export class CookieJar {
    constructor();
    /** The cookies the jar would send to url: name → values. */
    cookiesForURL(url: string): Record<string, string[]>;
    set(url: string, name: string, value: string, options?: CookieOptions): void;
    delete(url: string, name: string): void;
    clear(url: string): void;
  }

  export interface ResponseCookie {
    name: string;
    value: string;
    domain: string;
    path: string;
    http_only: boolean;
    secure: boolean;
    max_age: number;
    /** Milliseconds since the epoch, 0 when unset. */
    expires: number;
  }

  /** k6's durations of one request, in milliseconds. */
  export interface Timings {
    blocked: number;
    connecting: number;
    tls_handshaking: number;
    sending: number;
    waiting: number;
    receiving: number;
    /** sending + waiting + receiving. */
    duration: number;
  }

  export interface Response {
    /** HTTP status, 0 when no response was received (see error_code). */
    status: number;
    /** The status line, e.g. "200 OK". */
    status_text: string;
    /** The body: string for responseType text, ArrayBuffer for binary, null for none or a failed request. */
    body: string | ArrayBuffer | null;
    /** Response headers, canonical names, repeated values joined with ", ". */
    headers: Record<string, string>;
    /** The URL of the last response, after redirects. */
    url: string;
    proto: string;
    /** The error message of a failed request, "" otherwise. */
    error: string;
    /** k6's error code: 1000+status for 4xx and 5xx, 1050 timeout, 1212 refused, …; 0 for none. */
    error_code: number;
    remote_ip: string;
    remote_port: number;
    /** "tls1.2" or "tls1.3"; "" without TLS. */
    tls_version: string;
    tls_cipher_suite: string;
    timings: Timings;
    /** The last request sent (after redirects). */
    request: {
      method: string; url: string; headers: Record<string, string[]>; body: string;
      cookies: Record<string, Array<{ name: string; value: string; replace: boolean }>>;
    };
    /** The cookies the response set, by name. */
    cookies: Record<string, ResponseCookie[]>;
    /** The body parsed as JSON, or the value at a GJSON path (undefined when nothing matches). */
    json(selector?: string): any;
    /** The body parsed as HTML (k6/html): the document's Selection, or Selection.find(selector) on it. */
    html(selector?: string): import('k6/html').Selection;
    /** Fills in and submits a form of the page (the first "form" by default) and returns the response. */
    submitForm(args?: {
      formSelector?: string;
      fields?: Record<string, string | number | boolean | Array<string | number>>;
      submitSelector?: string;
      params?: Params | null;
    }): Response;
    /** Requests the href of a link of the page (the first "a[href]" by default) and returns the response. */
    clickLink(args?: { selector?: string; params?: Params | null }): Response;
  }

  /** One request of a batch: a URL (GET), [method, url, body, params] or an object. */
  export type BatchRequest =
    | string
    | URLTemplate
    | [string, string, RequestBody?, Params?]
    | { method?: string; url: string; body?: RequestBody; params?: Params };

  export function request(method: string, url: string | URLTemplate | { toString(): string }, body?: RequestBody, params?: Params | null): Response;
  export function get(url: string | URLTemplate | { toString(): string }, params?: Params | null): Response;
  export function head(url: string | URLTemplate | { toString(): string }, params?: Params | null): Response;
  export function post(url: string | URLTemplate | { toString(): string }, body?: RequestBody, params?: Params | null): Response;
  export function put(url: string | URLTemplate | { toString(): string }, body?: RequestBody, params?: Params | null): Response;
  export function patch(url: string | URLTemplate | { toString(): string }, body?: RequestBody, params?: Params | null): Response;
  export function del(url: string | URLTemplate | { toString(): string }, body?: RequestBody, params?: Params | null): Response;
  export function options(url: string | URLTemplate | { toString(): string }, body?: RequestBody, params?: Params | null): Response;
  export function asyncRequest(method: string, url: string | { toString(): string }, body?: RequestBody, params?: Params | null): Promise<Response>;
  export function batch(requests: BatchRequest[]): Response[];
  export function batch<K extends string>(requests: Record<K, BatchRequest>): Record<K, Response>;
  export function expectedStatuses(...statuses: Array<number | { min: number; max: number }>): ExpectedStatuses;
  export function setResponseCallback(callback: ExpectedStatuses | null): void;
  /** The VU's cookie jar, emptied at each iteration. */
  export function cookieJar(): CookieJar;
  /** A file for a multipart body; filename defaults to the time in ns, contentType to application/octet-stream. */
  export function file(data: string | ArrayBuffer | ArrayBufferView, filename?: string, contentType?: string): FileData;
  /** The tagged template http.url`https://host/items/${id}`: requests to it are named by the template. */
  export function url(strings: TemplateStringsArray, ...values: unknown[]): URLTemplate;

  export const TLS_1_0: 'tls1.0';
  export const TLS_1_1: 'tls1.1';
  export const TLS_1_2: 'tls1.2';
  export const TLS_1_3: 'tls1.3';

  const http: {
    request: typeof request; get: typeof get; head: typeof head; post: typeof post; put: typeof put;
    patch: typeof patch; del: typeof del; options: typeof options; asyncRequest: typeof asyncRequest;
    batch: typeof batch; expectedStatuses: typeof expectedStatuses; setResponseCallback: typeof setResponseCallback;
    cookieJar: typeof cookieJar; CookieJar: typeof CookieJar; file: typeof file; url: typeof url;
    TLS_1_0: typeof TLS_1_0; TLS_1_1: typeof TLS_1_1; TLS_1_2: typeof TLS_1_2; TLS_1_3: typeof TLS_1_3;
  };
  export default http;
}
