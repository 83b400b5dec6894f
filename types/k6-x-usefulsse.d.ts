/**
 * Type declarations for the `k6/x/usefulsse` module of usefullatency: a
 * streaming probe that reads Server-Sent Events and records when the stream
 * moved, when visible text started, when the answer became useful and when it
 * completed.
 */
declare module 'k6/x/usefulsse' {
  /** A duration: a Go-style string ('1m30s', '500ms') or milliseconds. */
  export type Duration = string | number;

  /** The stream dialect; `auto` detects it from the first events. */
  export type Dialect = 'auto' | 'business' | 'openai' | 'anthropic' | 'raw';

  /** The kind every SSE event is classified into, exactly one each. */
  export type EventKind =
    | 'heartbeat' | 'empty' | 'text' | 'reasoning' | 'tool' | 'state' | 'done' | 'error' | 'invalid';

  /** What a predicate function sees. */
  export interface PredicateContext {
    /** The business state merged from all events so far. */
    state: Record<string, unknown>;
    /** The visible text so far. */
    text: string;
    /** The event being evaluated. */
    event: StreamEvent;
    /** Milliseconds from the moment the request was sent to the event. */
    elapsed_ms: number;
  }

  /** A declarative predicate (evaluated in Go) or a function. */
  export type Predicate =
    | { fields: string[] }
    | { field: string; equals: unknown }
    | { text: string }
    | { jsonFields: string[] }
    | { event: EventKind | string }
    | { any: Predicate[] }
    | { all: Predicate[] }
    | ((ctx: PredicateContext) => boolean);

  /** Where the server reports its queue time. */
  export type QueueSource =
    | string
    | { header: string; metric?: string }
    | { field: string };

  export interface Pricing {
    /** Cost of one million input tokens. */
    inputPer1M?: number;
    /** Cost of one million output tokens. */
    outputPer1M?: number;
    /** Fixed cost of one request. */
    perRequest?: number;
  }

  /**
   * Per-request objectives: the largest value of each named timing, a
   * duration string ('2.5s', '800ms') or milliseconds above zero. The request
   * is good (`Result.good`, the `usefulsse_good` Rate) when it succeeded and
   * reached every named timing within its objective.
   */
  export interface SLO {
    queue?: Duration;
    headers?: Duration;
    first_event?: Duration;
    first_text?: Duration;
    useful?: Duration;
    complete?: Duration;
    max_gap?: Duration;
  }

  export interface Params {
    /** Request headers; `Accept: text/event-stream` unless set. */
    headers?: Record<string, string>;
    /** Extra metric tags, e.g. `{ bucket: 'single_tool' }`. */
    tags?: Record<string, string>;
    /** Value of the `name` tag; defaults to the URL. */
    name?: string;
    /** Deadline for the whole exchange; default '60s'. */
    timeout?: Duration;
    /** Longest silence allowed after the headers; default '30s'. */
    idleTimeout?: Duration;
    /** Default 'auto'. */
    dialect?: Dialect;
    /** The first actionable moment; defaults per dialect. */
    useful?: Predicate;
    /** Named milestones, each with its first-true time. */
    marks?: Record<string, Predicate>;
    /** Default: Server-Timing `queue;dur=`, else the field `queue_ms`. */
    queue?: QueueSource;
    /** Called for every event after it was timestamped. */
    onEvent?: (event: StreamEvent) => void;
    /** Largest accepted event: bytes or '1MiB', '64KiB'; default '1MiB'. */
    maxEventSize?: number | string;
    /** Prices that turn token usage into `cost`. */
    pricing?: Pricing;
    /** Content types accepted besides text/event-stream. */
    contentTypes?: string[];
    /** Redirects to follow; default the maxRedirects option (10); 0 follows none. More fail with redirect_error. */
    maxRedirects?: number;
    /** Headers dropped on a redirect to another host or scheme, besides Authorization, Proxy-Authorization, Cookie, X-Api-Key, Api-Key, X-Goog-Api-Key. */
    sensitiveHeaders?: string[];
    /** Lets a redirect go from https to http; default false (redirect_error). */
    allowInsecureRedirect?: boolean;
    /** Largest response body after decoding: bytes or '64MiB' (default); more fails with response_too_large. */
    maxResponseSize?: number | string;
    /** Largest response head (status line and headers): bytes or '10MiB' (default and maximum). */
    maxHeaderSize?: number | string;
    /** Objectives that make the request good: `{ useful: '2.5s', first_text: '800ms' }`. */
    slo?: SLO;
  }

  /** One SSE event as the probe classified it. */
  export interface StreamEvent {
    kind: EventKind;
    /** The SSE event type ('message' when unnamed; '' for comments). */
    type: string;
    id: string;
    data: string;
    comment: string;
    /** Visible text this event added. */
    text: string;
    reasoning: string;
    /** Milliseconds from the moment the request was sent. */
    elapsed_ms: number;
    /** Present (true) when the event came in one network read with the event before it: both carry that read's stamp, late for the one before. */
    shared_read?: true;
  }

  /** Milliseconds from the moment the request was sent; null when never reached. */
  export interface Timings {
    schedule_lag: number | null;
    /** The TCP connect of the connection the request opened (a duration, ms); null when it reused one. */
    connecting: number | null;
    /** The TLS handshake of the connection the request opened (a duration, ms); null when it reused one or on http://. */
    tls_handshaking: number | null;
    queue: number | null;
    headers: number | null;
    first_event: number | null;
    first_text: number | null;
    useful: number | null;
    complete: number | null;
    max_gap: number | null;
  }

  export interface ToolCall {
    index: number;
    id: string;
    name: string;
    arguments: string;
  }

  export interface Result {
    status: number;
    proto: string;
    headers: Record<string, string>;
    error: string;
    error_code: string;
    url: string;
    text: string;
    reasoning: string;
    state: Record<string, unknown>;
    tool_calls: ToolCall[];
    usage: { input_tokens: number; output_tokens: number; reasoning_tokens: number };
    cost: number;
    events: number;
    heartbeats: number;
    empty_events: number;
    /** Events that arrived in one network read with the next event: their stamp is that read's, possibly late. */
    coalesced_events: number;
    /** The longest wait, ms, between the kernel receiving bytes of the response and the runner reading them; null without kernel stamps. */
    read_lag: number | null;
    /** Whether the request met every objective of its `slo` param; null without one. */
    good: boolean | null;
    timings: Timings;
    marks: Record<string, number | null>;
  }

  /** A request body: a string, bytes, or an object sent as JSON. */
  export type Body = string | ArrayBuffer | object | null;

  /** Sends a request and blocks the VU until the stream ended. */
  export function request(method: string, url: string, body?: Body, params?: Params): Result;
  /** `request('POST', …)`. */
  export function post(url: string, body?: Body, params?: Params): Result;
  /** `request('GET', …)`. */
  export function get(url: string, params?: Params): Result;
  /** Like request, without blocking: one VU can hold several streams. */
  export function requestAsync(method: string, url: string, body?: Body, params?: Params): Promise<Result>;

  /** What usefulsse.watch measures on a page and when it stops. */
  export interface WatchParams {
    /** Called once the recorder is installed: the user's action that causes the answer, e.g. `() => page.locator('#send').click()`. */
    action?: () => unknown;
    /** Predicate of the useful moment on each snapshot of the answer (ctx.text: its visible text, ctx.state: its state); default: the first visible text. */
    useful?: Predicate;
    /** CSS selector marking the end: the answer element matches it or contains a match, e.g. '[data-done]'. */
    done?: string;
    /** No change for this long after the first visible text ends the answer; default '1s' without done, none with done. */
    quiet?: Duration;
    /** Bounds the watch; default '60s'; reaching it gives error_code ui_timeout. */
    timeout?: Duration;
    /** CSS selector of a JSON island inside the answer element holding its state, e.g. 'script[type="application/json"]'. */
    state?: string;
    /** Attribute of the answer element holding its state as JSON, e.g. 'data-state'. */
    stateAttribute?: string;
    /** The moment of the user's action (a Date or Unix ms); default: the first trusted input event after the recorder was installed. */
    actionAt?: Date | number;
    /** Extra metric tags; the samples also carry layer: 'ui'. */
    tags?: Record<string, string>;
  }

  /** What usefulsse.watch measured: times in ms from the action, null when never reached. */
  export interface WatchResult {
    timings: { first_text: number | null; useful: number | null; complete: number | null };
    /** The answer's last visible text and state. */
    text: string;
    state: Record<string, unknown> | null;
    error: string;
    /** '', ui_timeout, ui_limit, ui_page, ui_action, ui_stopped, callback_error or canceled. */
    error_code: string;
    useful_reached: boolean;
    /** The action's Unix ms and its source: the input event's type, 'given' or 'start'. */
    action: { at: number | null; source: string };
    /** How the answer ended: done, quiet, timeout, limit or stopped. */
    end: string;
    changes: number;
  }

  /** Measures an answer on a k6/browser page as the user sees it: the element matching selector (the last one that appeared after the call). */
  export function watch(page: unknown, selector: string, params?: WatchParams): Promise<WatchResult>;

  const usefulsse: {
    request: typeof request;
    post: typeof post;
    get: typeof get;
    requestAsync: typeof requestAsync;
    watch: typeof watch;
  };
  export default usefulsse;
}
