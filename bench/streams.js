// Streaming load: open-loop new streams at RATE/s for DURATION against
// bench/sseserver (SSE_URL), one usefulsse.post per iteration, business
// dialect. first_text_error is the probe's first_text minus the server's
// own send time of the first visible text (res.state.first_text_ms, sent in
// the final event): the probe's error, in ms.
//
// The two clocks start at different moments: the probe's zero is "request
// handed to the transport", the server's zero is "request arrived" (its
// handler started). The error therefore also holds the request's transit
// (client write, loopback, server read and dispatch), a few tens of µs on
// loopback with a kept-alive connection (each VU keeps its connection; a
// VU's first request also pays the TCP connect, ~0.1 ms). Both sides read
// the monotonic clock.
//
//   usefullatency run -e SSE_URL=http://127.0.0.1:PORT -e RATE=1500 bench/streams.js
import usefulsse from 'k6/x/usefulsse';
import { Trend } from 'k6/metrics';

const RATE = Number(__ENV.RATE || 1500);
// Streams last ~1 s: 2×RATE VUs cover the concurrency with room to spare.
const VUS = Number(__ENV.VUS || 2 * RATE);
const URL = `${__ENV.SSE_URL || 'http://127.0.0.1:8080'}/chat`;

const firstTextError = new Trend('first_text_error', true);
// The same error measured from the headers on both sides: the request's way
// in and the server's delay in starting the handler drop out, what is left
// is the probe's error on the response alone.
const firstTextErrorRel = new Trend('first_text_error_rel', true);

export const options = {
  scenarios: {
    streams: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: __ENV.DURATION || '30s',
      preAllocatedVUs: VUS,
      maxVUs: VUS,
      gracefulStop: '5s',
    },
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(99)', 'p(99.9)', 'max', 'count'],
};

const body = { bucket: 'qa', question: 'Can I return my order?' };
const params = { dialect: 'business', tags: { bucket: 'qa' } };
// ONEVENT=1: an (empty) onEvent callback, so the stream runs JavaScript.
if (__ENV.ONEVENT) {
  params.onEvent = () => {};
}

export default function () {
  const res = usefulsse.post(URL, body, params);
  const server = res.state.first_text_ms;
  if (res.timings.first_text !== null && server !== undefined) {
    firstTextError.add(res.timings.first_text - server);
    const headers = res.state.headers_ms;
    if (res.timings.headers !== null && headers !== undefined) {
      firstTextErrorRel.add(res.timings.first_text - res.timings.headers - (server - headers));
    }
  }
}
