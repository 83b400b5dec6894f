package k6streams_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/js/jstest"
)

// call runs the async default function of body (the script below the
// imports) in a real VU and fails the test with its error.
func call(t *testing.T, body string) {
	t.Helper()
	src := `import { ReadableStream, ReadableStreamDefaultReader, ReadableStreamDefaultController, CountQueuingStrategy, ByteLengthQueuingStrategy } from 'k6/experimental/streams';
import { setTimeout } from 'k6/timers';
function assert(cond, msg) { if (!cond) throw new Error('assertion failed: ' + msg); }
function eq(got, want, msg) { const g = JSON.stringify(got), w = JSON.stringify(want); if (g !== w) throw new Error(msg + ': got ' + g + ', want ' + w); }
async function rejects(p, type, msg) {
  try { await p; } catch (e) { if (type && !(e instanceof type)) throw new Error(msg + ': rejected with ' + e); return e; }
  throw new Error(msg + ': did not reject');
}
function throws(fn, type, msg) {
  try { fn(); } catch (e) { if (!(e instanceof type)) throw new Error(msg + ': threw ' + e); return e; }
  throw new Error(msg + ': did not throw');
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export default async function () {
` + body + `
}
`
	vu := jstest.NewVU(t, src)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := vu.Call(ctx, "default"); err != nil {
		t.Fatal(err)
	}
}

// TestStartSource reads every chunk a source enqueues in start(), then the
// end of the stream, and sees the reader's closed promise resolve.
func TestStartSource(t *testing.T) {
	call(t, `
  const s = new ReadableStream({ start(c) { for (let i = 1; i <= 3; i++) c.enqueue(i); c.close(); } });
  const r = s.getReader();
  const got = [];
  for (;;) { const { value, done } = await r.read(); if (done) break; got.push(value); }
  eq(got, [1, 2, 3], 'chunks');
  eq(await r.read(), { value: undefined, done: true }, 'read after the end');
  eq(await r.closed, undefined, 'closed');
  throws(() => new ReadableStreamDefaultController(), TypeError, 'controller constructor');
  assert(r instanceof ReadableStreamDefaultReader, 'reader class');`)
}

// TestPullBackpressure checks that pull fills the queue up to the
// high-water mark and no further, and is called again only as reads
// drain it.
func TestPullBackpressure(t *testing.T) {
	call(t, `
  let n = 0; const sizes = [];
  const s = new ReadableStream({
    pull(c) { sizes.push(c.desiredSize); n++; c.enqueue(n); if (n === 10) c.close(); },
  }, new CountQueuingStrategy({ highWaterMark: 3 }));
  await sleep(10);
  eq(n, 3, 'pulls before any read (highWaterMark 3)');
  eq(sizes, [3, 2, 1], 'desiredSize seen by pull');
  const r = s.getReader();
  eq(await r.read(), { value: 1, done: false }, 'first read');
  await sleep(0);
  eq(n, 4, 'one pull per chunk read');
  const got = [1];
  for (;;) { const { value, done } = await r.read(); if (done) break; got.push(value); assert(n - value <= 3, 'pulled ' + n + ' while reading ' + value); }
  eq(got, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'chunks');
  eq(n, 10, 'pulls');`)
}

// TestAsyncPull reads from a source whose pull returns a promise settled
// by a timer: a single pull runs at a time and reads wait for it.
func TestAsyncPull(t *testing.T) {
	call(t, `
  let i = 0, running = 0, most = 0;
  const s = new ReadableStream({
    async pull(c) {
      running++; most = Math.max(most, running);
      await sleep(5);
      running--;
      i++;
      if (i > 4) c.close(); else c.enqueue('chunk' + i);
    },
  }, { highWaterMark: 0 });
  const r = s.getReader();
  const all = await Promise.all([r.read(), r.read(), r.read(), r.read(), r.read()]);
  eq(all.map((x) => x.value), ['chunk1', 'chunk2', 'chunk3', 'chunk4', undefined], 'values');
  eq(all[4].done, true, 'last read is done');
  eq(most, 1, 'concurrent pulls');`)
}

// TestCancel checks that cancel reaches the source's cancel with its
// reason, clears the queue and ends pending and later reads.
func TestCancel(t *testing.T) {
	call(t, `
  let reason;
  const s = new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); }, cancel(why) { reason = why; return sleep(5); } });
  const r = s.getReader();
  eq(await r.read(), { value: 'a', done: false }, 'read before cancel');
  await rejects(s.cancel('x'), TypeError, 'cancel of a locked stream');
  eq(await r.cancel('enough'), undefined, 'reader.cancel');
  eq(reason, 'enough', 'reason given to the source');
  eq(await r.read(), { value: undefined, done: true }, 'read after cancel');
  await r.closed;
  const t = new ReadableStream({ cancel() { throw new Error('boom'); } });
  const thrown = await rejects(t.cancel(), Error, 'source cancel throwing');
  eq(thrown.message, 'boom', 'cancel rejection');`)
}

// TestErrors checks that controller.error and a throwing pull reject
// pending and later reads and the closed promise, and that misuse is a
// TypeError.
func TestErrors(t *testing.T) {
	call(t, `
  let ctrl;
  const s = new ReadableStream({ start(c) { ctrl = c; } });
  const r = s.getReader();
  const pending = r.read();
  ctrl.error(new Error('broken'));
  eq((await rejects(pending, Error, 'pending read')).message, 'broken', 'pending read error');
  eq((await rejects(r.read(), Error, 'later read')).message, 'broken', 'later read error');
  eq((await rejects(r.closed, Error, 'closed')).message, 'broken', 'closed error');
  eq(ctrl.desiredSize, null, 'desiredSize once errored');
  throws(() => ctrl.enqueue(1), TypeError, 'enqueue after error');

  const p = new ReadableStream({ pull() { throw new RangeError('no data'); } }).getReader();
  await rejects(p.read(), RangeError, 'throwing pull');

  const st = new ReadableStream({ start() { return Promise.reject(new Error('late')); } }).getReader();
  await rejects(st.read(), Error, 'rejected start');

  let closer;
  new ReadableStream({ start(c) { closer = c; } });
  closer.close();
  throws(() => closer.enqueue(1), TypeError, 'enqueue after close');
  throws(() => closer.close(), TypeError, 'close twice');
  eq(closer.desiredSize, 0, 'desiredSize once closed');

  throws(() => new ReadableStream({ type: 'bytes' }), TypeError, 'byte stream');
  throws(() => new ReadableStream({}, { highWaterMark: -1 }), RangeError, 'negative highWaterMark');
  throws(() => new ReadableStream({}, { size: 3 }), TypeError, 'size not a function');
  throws(() => new ReadableStream({ start() { throw new SyntaxError('x'); } }), SyntaxError, 'throwing start');
  const bad = new ReadableStream({ start(c) { ctrl = c; } }, { size: () => -1 });
  throws(() => ctrl.enqueue('x'), RangeError, 'negative chunk size');
  await rejects(bad.getReader().read(), RangeError, 'stream errored by a bad size');`)
}

// TestLocking checks locked, getReader on a locked stream and
// releaseLock with a read pending.
func TestLocking(t *testing.T) {
	call(t, `
  let ctrl;
  const s = new ReadableStream({ start(c) { ctrl = c; } });
  eq(s.locked, false, 'locked before getReader');
  const r = s.getReader();
  eq(s.locked, true, 'locked with a reader');
  throws(() => s.getReader(), TypeError, 'second getReader');
  throws(() => new ReadableStreamDefaultReader(s), TypeError, 'second reader constructor');
  throws(() => s.getReader({ mode: 'byob' }), TypeError, 'byob reader');
  const pending = r.read();
  r.releaseLock();
  eq(s.locked, false, 'locked after releaseLock');
  await rejects(pending, TypeError, 'read pending at release');
  await rejects(r.read(), TypeError, 'read of a released reader');
  await rejects(r.closed, TypeError, 'closed of a released reader');
  await rejects(r.cancel(), TypeError, 'cancel of a released reader');
  r.releaseLock();
  const r2 = s.getReader();
  ctrl.enqueue('kept');
  eq(await r2.read(), { value: 'kept', done: false }, 'a new reader reads on');`)
}

// TestQueuingStrategies checks both strategies' members and that
// ByteLengthQueuingStrategy measures desiredSize in bytes.
func TestQueuingStrategies(t *testing.T) {
	call(t, `
  const count = new CountQueuingStrategy({ highWaterMark: 5 });
  eq(count.highWaterMark, 5, 'count highWaterMark');
  eq(count.size('anything'), 1, 'count size');
  const bytes = new ByteLengthQueuingStrategy({ highWaterMark: 16 });
  eq(bytes.highWaterMark, 16, 'byte highWaterMark');
  eq(bytes.size(new Uint8Array(7)), 7, 'byte size');
  throws(() => new CountQueuingStrategy(), TypeError, 'no init');
  throws(() => new ByteLengthQueuingStrategy({}), TypeError, 'no highWaterMark');
  let ctrl;
  const s = new ReadableStream({ start(c) { ctrl = c; } }, bytes);
  eq(ctrl.desiredSize, 16, 'desiredSize empty');
  ctrl.enqueue(new Uint8Array(10));
  ctrl.enqueue(new Uint8Array(10));
  eq(ctrl.desiredSize, -4, 'desiredSize over the mark');
  const r = s.getReader();
  eq((await r.read()).value.byteLength, 10, 'first chunk');
  eq(ctrl.desiredSize, 6, 'desiredSize after a read');
  const d = new ReadableStream({ start(c) { ctrl = c; } });
  eq(ctrl.desiredSize, 1, 'default highWaterMark');`)
}

// TestSourceErrorEndsIteration checks that an exception thrown by a
// source's pull, awaited by the default function, is the call's error.
func TestSourceErrorEndsIteration(t *testing.T) {
	vu := jstest.NewVU(t, `import { ReadableStream } from 'k6/experimental/streams';
export default async function () {
  const r = new ReadableStream({ pull() { throw new Error('source failed'); } }).getReader();
  await r.read();
}`)
	_, err := vu.Call(context.Background(), "default")
	if err == nil || !strings.Contains(err.Error(), "source failed") {
		t.Fatalf("err = %v, want the source's error", err)
	}
}
