// The probe's truth under a busy runner: STREAM_RATE streams/s (default 5)
// against bench/sseserver (SSE_URL: http:// or https://; run the server
// with -interval 10ms -events 100 for a dense stream, the default 50 ms for
// a sparse one) while BUSY VUs (default 6) spin JavaScript, so the runner's
// cores are busy. Every moment is compared with the server's own time of
// it, both counted from the request (the probe from the request's first
// byte on the wire; the server from the kernel's receive time of the
// request, its request_lag_ms added to the times it counts from its
// handler's start — without it the server's own lateness on a busy
// machine would count as the probe's error):
//
//   err_headers     |headers − headers_ms|
//   err_first_text  |first_text − first_text_ms|
//   err_useful      |useful − useful_ms|
//   err_event       |event.elapsed_ms − server_ms| for every event
//                   (only with ONEVENT=1: the callback reads them)
//
// Only requests on reused connections count (a new connection's moments
// also hold its set-up, which the server does not see). What is left is
// the request's way in and the probe's own error: tens of µs on an idle
// loopback. Run the server at a higher priority (nice -n -10) so that its
// own writes are not late on a machine the runner keeps busy. SERVER_LAG=0
// leaves request_lag_ms out (the errors then include the server's
// lateness).
//
//   usefullatency run -e SSE_URL=https://127.0.0.1:PORT -e ONEVENT=1 bench/truth.js
import usefulsse from 'k6/x/usefulsse';
import { Trend } from 'k6/metrics';

export { spin } from './spin.js';

const URL = `${__ENV.SSE_URL || 'http://127.0.0.1:8080'}/chat`;
const errHeaders = new Trend('err_headers', true);
const errFirstText = new Trend('err_first_text', true);
const errUseful = new Trend('err_useful', true);
const errEvent = new Trend('err_event', true);

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
  summaryTrendStats: ['avg', 'med', 'p(95)', 'p(99)', 'max', 'count'],
};

const body = { bucket: 'qa', question: 'Can I return my order?' };
const params = { dialect: 'business', tags: { bucket: 'qa' } };
const seen = []; // this VU's current request: [probe, server] of each event
if (__ENV.ONEVENT) {
  params.onEvent = (ev) => {
    if (ev.data) {
      const d = JSON.parse(ev.data);
      if (d.server_ms !== undefined) {
        seen.push([ev.elapsed_ms, d.server_ms]);
      }
    }
  };
}

function addErr(trend, probe, server, lag) {
  if (probe !== null && probe !== undefined && server !== undefined) {
    trend.add(Math.abs(probe - (server + lag)));
  }
}

export function stream() {
  seen.length = 0;
  const res = usefulsse.post(URL, body, params);
  if (res.timings.connecting !== null && res.timings.connecting !== undefined) {
    return; // a new connection: its moments count its set-up too, the server's don't
  }
  const s = res.state;
  const lag = __ENV.SERVER_LAG !== '0' && s.request_lag_ms !== undefined ? s.request_lag_ms : 0;
  addErr(errHeaders, res.timings.headers, s.headers_ms, lag);
  addErr(errFirstText, res.timings.first_text, s.first_text_ms, lag);
  addErr(errUseful, res.timings.useful, s.useful_ms, lag);
  for (const [probe, server] of seen) {
    addErr(errEvent, probe, server, lag);
  }
}
