// compat: k6/timers — setTimeout runs in delay order on the VU's event loop, clearTimeout cancels, setInterval repeats until cleared; the iteration waits for them
import { check } from 'k6';
import { setTimeout as kSetTimeout } from 'k6/timers';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

export default function () {
  const order = [];
  setTimeout(() => order.push('b'), 20);
  kSetTimeout(() => order.push('a'), 5);
  const cancelled = setTimeout(() => order.push('never'), 1);
  clearTimeout(cancelled);
  let ticks = 0;
  const id = setInterval(() => {
    ticks++;
    if (ticks === 3) {
      clearInterval(id);
      check(order, {
        'timeouts ran in delay order': (o) => o.join('') === 'ab' || o.join('') === 'a',
        'cleared timeout never ran': (o) => !o.includes('never'),
        'interval ran three times': () => ticks === 3,
      });
    }
  }, 10);
  setTimeout(() => check(order, { 'both timeouts ran before the last one': (o) => o.join('') === 'ab' }), 60);
}
