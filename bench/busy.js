// The probe's stamp error under a busy client: STREAM_RATE streams/s
// (default 5) against bench/sseserver (SSE_URL: http:// or https://, the
// transport under test) while BUSY VUs (default 6) keep the JavaScript
// engines, and so the runner's two cores, busy. first_text_error_rel is
// the probe's first_text − headers minus the server's own first_text_ms −
// headers_ms: the receive-side error alone (the request's way in and the
// server's start drop out). With read-time stamps it holds how late the
// busy runner read the socket; with kernel stamps it should not.
//
// t0_error is the send side: the probe's headers (from its t0 to the
// kernel's receive time of the headers) minus the server's
// kernel_headers_ms (its kernel's send time of the headers minus its
// kernel's receive time of the request; plain http:// only). What is left
// is how long before the request left the client the probe's t0 lies, plus
// two loopback transits: a busy runner descheduled between t0 and its
// write makes it large. A runner that reads late can also find the
// headers and the first event in one read, which stamps the headers with
// the event's later arrival: t0_error_own_read keeps only the streams
// whose headers came in a read of their own (headers before first_event),
// the send side alone.
//
//   usefullatency run --insecure-skip-tls-verify -e SSE_URL=https://127.0.0.1:PORT bench/busy.js
import usefulsse from 'k6/x/usefulsse';
import { Trend } from 'k6/metrics';

export { spin } from './spin.js';

const URL = `${__ENV.SSE_URL || 'http://127.0.0.1:8080'}/chat`;
const errRel = new Trend('first_text_error_rel', true);
const t0Err = new Trend('t0_error', true);
const t0ErrOwn = new Trend('t0_error_own_read', true);

export const options = {
  insecureSkipTLSVerify: true,
  scenarios: {
    streams: {
      executor: 'constant-arrival-rate', exec: 'stream',
      rate: Number(__ENV.STREAM_RATE || 5), timeUnit: '1s', duration: __ENV.DURATION || '20s',
      preAllocatedVUs: 20, maxVUs: 40, gracefulStop: '5s',
    },
    busy: {
      executor: 'constant-vus', exec: 'spin',
      vus: Number(__ENV.BUSY || 6), duration: __ENV.DURATION || '20s', gracefulStop: '1s',
    },
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(95)', 'p(99)', 'max', 'count'],
};

const body = { bucket: 'qa', question: 'Can I return my order?' };
const params = { dialect: 'business', tags: { bucket: 'qa' } };
if (__ENV.ONEVENT) {
  params.onEvent = () => {};
}

export function stream() {
  const res = usefulsse.post(URL, body, params);
  const s = res.state;
  if (res.timings.first_text !== null && res.timings.headers !== null && s.first_text_ms !== undefined && s.headers_ms !== undefined) {
    errRel.add(res.timings.first_text - res.timings.headers - (s.first_text_ms - s.headers_ms));
  }
  if (res.timings.headers !== null && s.kernel_headers_ms !== undefined) {
    t0Err.add(res.timings.headers - s.kernel_headers_ms);
    if (res.timings.first_event !== null && res.timings.headers < res.timings.first_event) {
      t0ErrOwn.add(res.timings.headers - s.kernel_headers_ms);
    }
  }
}
