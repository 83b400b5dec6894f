// Replays a Mooncake-format trace (mooncake.jsonl, or TRACE): every
// iteration checks that it got the row of its global index (the rows'
// input_length is 100 + 13 × index) and sums its input_length, so merged
// runners can prove every row was delivered exactly once.
import exec from 'k6/execution';
import { check } from 'k6';
import { Counter } from 'k6/metrics';

const inputSum = new Counter('trace_input_sum');
const inputSquares = new Counter('trace_input_squares');

export const options = {
  scenarios: {
    replay: {
      executor: 'trace-replay',
      file: __ENV.TRACE || 'mooncake.jsonl',
      speed: Number(__ENV.SPEED || 1),
      preAllocatedVUs: 5,
      maxVUs: 10,
    },
  },
};

export default function () {
  const row = exec.scenario.row;
  const n = Number(row.input_length);
  check(row, {
    'row of its index': (r) => n === 100 + 13 * exec.scenario.iterationInTest,
    'has the Mooncake fields': (r) => r.timestamp !== undefined && r.output_length !== undefined,
  });
  inputSum.add(n);
  inputSquares.add(n * n);
}
