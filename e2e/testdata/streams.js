// k6/experimental/streams as k6's documentation shows it: a stream of
// numbers produced by a pull-based source with a timer, read to the end in
// the default function, and a start()-fed stream cancelled half-way. Every
// check must pass.
import { check } from 'k6';
import { ReadableStream, CountQueuingStrategy } from 'k6/experimental/streams';
import { setTimeout } from 'k6/timers';

export const options = {
  iterations: 2,
  thresholds: { checks: ['rate==1'] },
};

function numbers(limit) {
  let n = 0;
  return new ReadableStream({
    pull(controller) {
      return new Promise((resolve) => {
        setTimeout(() => {
          n += 1;
          if (n > limit) controller.close();
          else controller.enqueue(n);
          resolve();
        }, 1);
      });
    },
  }, new CountQueuingStrategy({ highWaterMark: 2 }));
}

export default async function () {
  const reader = numbers(5).getReader();
  let sum = 0;
  let count = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    sum += value;
    count += 1;
  }
  check(sum, { 'read every number': (s) => s === 15 && count === 5 });

  let cancelled;
  const stream = new ReadableStream({
    start(controller) {
      ['a', 'b', 'c'].forEach((c) => controller.enqueue(c));
    },
    cancel(reason) { cancelled = reason; },
  });
  const r = stream.getReader();
  const first = await r.read();
  await r.cancel('done');
  const after = await r.read();
  check(null, {
    'first chunk': () => first.value === 'a' && first.done === false,
    'cancel reached the source': () => cancelled === 'done',
    'read after cancel is done': () => after.done === true,
    'stream stays locked': () => stream.locked === true,
  });
}
