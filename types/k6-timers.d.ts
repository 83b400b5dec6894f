// Declarations of the k6/timers module. The same four functions are
// globals too (see globals.d.ts); ids from either can be cleared by either.
declare module 'k6/timers' {
  /** Runs callback(...args) on the VU's event loop after delay ms (0 when omitted, negative or NaN); returns the timer's id. */
  export function setTimeout<A extends unknown[]>(callback: (...args: A) => void, delay?: number, ...args: A): number;
  /** Cancels a pending timeout or interval; unknown ids are ignored. */
  export function clearTimeout(id?: number): void;
  /** Runs callback(...args) every delay ms until cleared; returns the interval's id. */
  export function setInterval<A extends unknown[]>(callback: (...args: A) => void, delay?: number, ...args: A): number;
  /** Cancels a pending interval or timeout; unknown ids are ignored. */
  export function clearInterval(id?: number): void;

  const timers: {
    setTimeout: typeof setTimeout;
    clearTimeout: typeof clearTimeout;
    setInterval: typeof setInterval;
    clearInterval: typeof clearInterval;
  };
  export default timers;
}
