// The k6/experimental/streams module: the default (non-byte) readable
// stream of the WHATWG Streams Standard (https://streams.spec.whatwg.org/),
// its reader and controller, and the two queuing strategies. The
// algorithms follow the standard's names (ReadableStreamClose,
// CallPullIfNeeded, …) so each function can be checked against it. This
// file evaluates to a function that returns the module's exports; every
// promise is a plain one of the VU's runtime, settled on its event loop.
(function () {
  'use strict';

  // slots holds the internal state of every object this module made:
  // scripts see only the public classes.
  const slots = new WeakMap();
  const noop = () => {};

  function slot(obj, kind, what) {
    const s = slots.get(obj);
    if (!s || s.kind !== kind) throw new TypeError(what + ' called on an object that is not a ' + kind);
    return s;
  }

  function rejected(e) {
    return Promise.reject(e);
  }

  // deferred is a promise with its settle functions; handled marks a
  // rejection as expected so it is not reported as unhandled.
  function deferred() {
    const d = {};
    d.promise = new Promise((resolve, reject) => { d.resolve = resolve; d.reject = reject; });
    return d;
  }
  function handled(p) {
    p.catch(noop);
    return p;
  }

  // promiseCall invokes method on receiver and returns a promise of its
  // result: a throw becomes a rejection.
  function promiseCall(method, receiver, arg) {
    if (method === undefined) return Promise.resolve(undefined);
    try {
      return Promise.resolve(method.call(receiver, arg));
    } catch (e) {
      return rejected(e);
    }
  }

  function method(obj, name) {
    const m = obj[name];
    if (m !== undefined && typeof m !== 'function') throw new TypeError('underlyingSource.' + name + ' must be a function');
    return m;
  }

  // ---- queuing strategies ----

  function highWaterMarkOf(init, who) {
    if (init === null || typeof init !== 'object' || init.highWaterMark === undefined) {
      throw new TypeError(who + ': the highWaterMark member is required');
    }
    return Number(init.highWaterMark);
  }

  const countSize = function size() { return 1; };
  const byteLengthSize = function size(chunk) { return chunk.byteLength; };

  class CountQueuingStrategy {
    constructor(init) {
      slots.set(this, { kind: 'CountQueuingStrategy', highWaterMark: highWaterMarkOf(init, 'CountQueuingStrategy') });
    }
    get highWaterMark() { return slot(this, 'CountQueuingStrategy', 'highWaterMark').highWaterMark; }
    get size() { slot(this, 'CountQueuingStrategy', 'size'); return countSize; }
  }

  class ByteLengthQueuingStrategy {
    constructor(init) {
      slots.set(this, { kind: 'ByteLengthQueuingStrategy', highWaterMark: highWaterMarkOf(init, 'ByteLengthQueuingStrategy') });
    }
    get highWaterMark() { return slot(this, 'ByteLengthQueuingStrategy', 'highWaterMark').highWaterMark; }
    get size() { slot(this, 'ByteLengthQueuingStrategy', 'size'); return byteLengthSize; }
  }

  // ExtractHighWaterMark: undefined gives the default; NaN and negative
  // numbers are a RangeError.
  function extractHighWaterMark(strategy, dflt) {
    if (strategy.highWaterMark === undefined) return dflt;
    const hwm = Number(strategy.highWaterMark);
    if (Number.isNaN(hwm) || hwm < 0) throw new RangeError('ReadableStream: highWaterMark must be a non-negative number, got ' + String(strategy.highWaterMark));
    return hwm;
  }

  function extractSizeAlgorithm(strategy) {
    const size = strategy.size;
    if (size === undefined) return () => 1;
    if (typeof size !== 'function') throw new TypeError('ReadableStream: the strategy size must be a function');
    return (chunk) => size.call(undefined, chunk);
  }

  // ---- ReadableStream ----

  // illegal guards the constructors scripts must not call: only this
  // module makes controllers.
  const internalKey = Symbol('internal');

  class ReadableStream {
    constructor(underlyingSource, strategy) {
      if (underlyingSource === undefined || underlyingSource === null) underlyingSource = {};
      if (typeof underlyingSource !== 'object' && typeof underlyingSource !== 'function') {
        throw new TypeError('ReadableStream: underlyingSource must be an object');
      }
      if (strategy === undefined || strategy === null) strategy = {};
      if (typeof strategy !== 'object') throw new TypeError('ReadableStream: queuingStrategy must be an object');
      const stream = { kind: 'ReadableStream', state: 'readable', reader: undefined, storedError: undefined, disturbed: false, controller: undefined };
      slots.set(this, stream);
      if (underlyingSource.type !== undefined) {
        if (String(underlyingSource.type) === 'bytes') throw new TypeError('ReadableStream: byte streams (type "bytes") are not supported');
        throw new TypeError('ReadableStream: invalid underlyingSource type ' + JSON.stringify(String(underlyingSource.type)));
      }
      const size = extractSizeAlgorithm(strategy);
      const hwm = extractHighWaterMark(strategy, 1);
      setUpControllerFromSource(stream, underlyingSource, hwm, size);
    }

    get locked() { return isLocked(slot(this, 'ReadableStream', 'locked')); }

    cancel(reason) {
      let stream;
      try {
        stream = slot(this, 'ReadableStream', 'cancel');
      } catch (e) {
        return rejected(e);
      }
      if (isLocked(stream)) return rejected(new TypeError('ReadableStream.cancel: the stream is locked to a reader'));
      return streamCancel(stream, reason);
    }

    getReader(options) {
      const stream = slot(this, 'ReadableStream', 'getReader');
      const mode = options === undefined || options === null ? undefined : options.mode;
      if (mode !== undefined) {
        if (String(mode) === 'byob') throw new TypeError('ReadableStream.getReader: BYOB readers are not supported');
        throw new TypeError('ReadableStream.getReader: invalid mode ' + JSON.stringify(String(mode)));
      }
      return new ReadableStreamDefaultReader(this);
    }
  }

  function isLocked(stream) {
    return stream.reader !== undefined;
  }

  // ReadableStreamCancel.
  function streamCancel(stream, reason) {
    stream.disturbed = true;
    if (stream.state === 'closed') return Promise.resolve(undefined);
    if (stream.state === 'errored') return rejected(stream.storedError);
    streamClose(stream);
    return controllerCancelSteps(stream.controller, reason).then(noop);
  }

  // ReadableStreamClose.
  function streamClose(stream) {
    stream.state = 'closed';
    const reader = stream.reader;
    if (reader === undefined) return;
    reader.closed.resolve(undefined);
    const requests = reader.readRequests;
    reader.readRequests = [];
    for (const r of requests) r.close();
  }

  // ReadableStreamError.
  function streamError(stream, e) {
    stream.state = 'errored';
    stream.storedError = e;
    const reader = stream.reader;
    if (reader === undefined) return;
    reader.closed.reject(e);
    handled(reader.closed.promise);
    errorReadRequests(reader, e);
  }

  function errorReadRequests(reader, e) {
    const requests = reader.readRequests;
    reader.readRequests = [];
    for (const r of requests) r.error(e);
  }

  // ReadableStreamFulfillReadRequest.
  function fulfillReadRequest(stream, chunk, done) {
    const r = stream.reader.readRequests.shift();
    if (done) r.close();
    else r.chunk(chunk);
  }

  function numReadRequests(stream) {
    return stream.reader === undefined ? 0 : stream.reader.readRequests.length;
  }

  // ---- ReadableStreamDefaultController ----

  class ReadableStreamDefaultController {
    constructor(key) {
      if (key !== internalKey) throw new TypeError('ReadableStreamDefaultController: illegal constructor');
    }

    get desiredSize() { return desiredSize(slot(this, 'ReadableStreamDefaultController', 'desiredSize')); }

    close() {
      const c = slot(this, 'ReadableStreamDefaultController', 'close');
      if (!canCloseOrEnqueue(c)) throw new TypeError('ReadableStreamDefaultController.close: the stream is ' + closedOrErrored(c));
      controllerClose(c);
    }

    enqueue(chunk) {
      const c = slot(this, 'ReadableStreamDefaultController', 'enqueue');
      if (!canCloseOrEnqueue(c)) throw new TypeError('ReadableStreamDefaultController.enqueue: the stream is ' + closedOrErrored(c));
      controllerEnqueue(c, chunk);
    }

    error(e) {
      controllerError(slot(this, 'ReadableStreamDefaultController', 'error'), e);
    }
  }

  function closedOrErrored(c) {
    return c.closeRequested && c.stream.state === 'readable' ? 'closing' : c.stream.state;
  }

  // SetUpReadableStreamDefaultControllerFromUnderlyingSource and
  // SetUpReadableStreamDefaultController.
  function setUpControllerFromSource(stream, source, hwm, size) {
    const start = method(source, 'start');
    const pull = method(source, 'pull');
    const cancel = method(source, 'cancel');
    const obj = new ReadableStreamDefaultController(internalKey);
    const c = {
      kind: 'ReadableStreamDefaultController', obj, stream, queue: [], queueTotalSize: 0,
      started: false, closeRequested: false, pullAgain: false, pulling: false,
      strategyHWM: hwm, strategySize: size,
      pull: () => promiseCall(pull, source, obj),
      cancel: (reason) => promiseCall(cancel, source, reason),
    };
    slots.set(obj, c);
    stream.controller = c;
    const result = start === undefined ? undefined : start.call(source, obj);
    Promise.resolve(result).then(() => {
      c.started = true;
      callPullIfNeeded(c);
    }, (e) => controllerError(c, e));
  }

  // ReadableStreamDefaultControllerCallPullIfNeeded: at most one pull runs
  // at a time; a request while one runs makes it run again once it ends.
  function callPullIfNeeded(c) {
    if (!shouldCallPull(c)) return;
    if (c.pulling) {
      c.pullAgain = true;
      return;
    }
    c.pulling = true;
    c.pull().then(() => {
      c.pulling = false;
      if (c.pullAgain) {
        c.pullAgain = false;
        callPullIfNeeded(c);
      }
    }, (e) => controllerError(c, e));
  }

  // ReadableStreamDefaultControllerShouldCallPull: a reader waits, or the
  // queue is below the high-water mark.
  function shouldCallPull(c) {
    if (!canCloseOrEnqueue(c) || !c.started) return false;
    if (isLocked(c.stream) && numReadRequests(c.stream) > 0) return true;
    return desiredSize(c) > 0;
  }

  function clearAlgorithms(c) {
    c.pull = () => Promise.resolve(undefined);
    c.cancel = () => Promise.resolve(undefined);
    c.strategySize = () => 1;
  }

  function controllerClose(c) {
    if (!canCloseOrEnqueue(c)) return;
    c.closeRequested = true;
    if (c.queue.length === 0) {
      clearAlgorithms(c);
      streamClose(c.stream);
    }
  }

  // ReadableStreamDefaultControllerEnqueue: straight to a waiting read,
  // else into the queue with its size (a bad size errors the stream).
  function controllerEnqueue(c, chunk) {
    if (!canCloseOrEnqueue(c)) return;
    const stream = c.stream;
    if (isLocked(stream) && numReadRequests(stream) > 0) {
      fulfillReadRequest(stream, chunk, false);
    } else {
      let size;
      try {
        size = c.strategySize(chunk);
        size = Number(size);
        if (Number.isNaN(size) || size < 0 || size === Infinity) {
          throw new RangeError('ReadableStreamDefaultController.enqueue: the chunk size must be a finite non-negative number, got ' + String(size));
        }
      } catch (e) {
        controllerError(c, e);
        throw e;
      }
      c.queue.push({ value: chunk, size });
      c.queueTotalSize += size;
    }
    callPullIfNeeded(c);
  }

  function controllerError(c, e) {
    if (c.stream.state !== 'readable') return;
    resetQueue(c);
    clearAlgorithms(c);
    streamError(c.stream, e);
  }

  // ReadableStreamDefaultControllerGetDesiredSize: highWaterMark minus the
  // queued size; null once errored, 0 once closed.
  function desiredSize(c) {
    if (c.stream.state === 'errored') return null;
    if (c.stream.state === 'closed') return 0;
    return c.strategyHWM - c.queueTotalSize;
  }

  function canCloseOrEnqueue(c) {
    return !c.closeRequested && c.stream.state === 'readable';
  }

  function resetQueue(c) {
    c.queue = [];
    c.queueTotalSize = 0;
  }

  // [[CancelSteps]].
  function controllerCancelSteps(c, reason) {
    resetQueue(c);
    const result = c.cancel(reason);
    clearAlgorithms(c);
    return result;
  }

  // [[PullSteps]]: a queued chunk at once, else the request waits.
  function controllerPullSteps(c, request) {
    const stream = c.stream;
    if (c.queue.length > 0) {
      const { value, size } = c.queue.shift();
      c.queueTotalSize = c.queue.length === 0 ? 0 : Math.max(0, c.queueTotalSize - size);
      if (c.closeRequested && c.queue.length === 0) {
        clearAlgorithms(c);
        streamClose(stream);
      } else {
        callPullIfNeeded(c);
      }
      request.chunk(value);
      return;
    }
    stream.reader.readRequests.push(request);
    callPullIfNeeded(c);
  }

  // ---- ReadableStreamDefaultReader ----

  class ReadableStreamDefaultReader {
    constructor(stream) {
      const s = slots.get(stream);
      if (!s || s.kind !== 'ReadableStream') throw new TypeError('ReadableStreamDefaultReader: the argument must be a ReadableStream');
      if (isLocked(s)) throw new TypeError('ReadableStreamDefaultReader: the stream is already locked to a reader');
      const reader = { kind: 'ReadableStreamDefaultReader', stream: s, readRequests: [], closed: deferred() };
      s.reader = reader;
      if (s.state === 'closed') reader.closed.resolve(undefined);
      else if (s.state === 'errored') {
        reader.closed.reject(s.storedError);
        handled(reader.closed.promise);
      }
      slots.set(this, reader);
    }

    get closed() { return slot(this, 'ReadableStreamDefaultReader', 'closed').closed.promise; }

    read() {
      let reader;
      try {
        reader = slot(this, 'ReadableStreamDefaultReader', 'read');
      } catch (e) {
        return rejected(e);
      }
      const stream = reader.stream;
      if (stream === undefined) return rejected(new TypeError('ReadableStreamDefaultReader.read: the reader has been released'));
      const d = deferred();
      const request = {
        chunk: (value) => d.resolve({ value, done: false }),
        close: () => d.resolve({ value: undefined, done: true }),
        error: (e) => d.reject(e),
      };
      stream.disturbed = true;
      if (stream.state === 'closed') request.close();
      else if (stream.state === 'errored') request.error(stream.storedError);
      else controllerPullSteps(stream.controller, request);
      return d.promise;
    }

    releaseLock() {
      const reader = slot(this, 'ReadableStreamDefaultReader', 'releaseLock');
      const stream = reader.stream;
      if (stream === undefined) return;
      const e = new TypeError('ReadableStreamDefaultReader: the reader has been released');
      if (stream.state === 'readable') reader.closed.reject(e);
      else {
        reader.closed = deferred();
        reader.closed.reject(e);
      }
      handled(reader.closed.promise);
      stream.reader = undefined;
      reader.stream = undefined;
      errorReadRequests(reader, e);
    }

    cancel(reason) {
      let reader;
      try {
        reader = slot(this, 'ReadableStreamDefaultReader', 'cancel');
      } catch (e) {
        return rejected(e);
      }
      if (reader.stream === undefined) return rejected(new TypeError('ReadableStreamDefaultReader.cancel: the reader has been released'));
      return streamCancel(reader.stream, reason);
    }
  }

  return {
    ReadableStream,
    ReadableStreamDefaultReader,
    ReadableStreamDefaultController,
    CountQueuingStrategy,
    ByteLengthQueuingStrategy,
  };
})
