// The useful answer on the socket and on the screen, side by side: one
// scenario streams the assistant's answers with the probe (layer socket),
// another drives its chat page in Chromium and times, with usefulsse.watch,
// when the answer shows on the page (layer ui). The summary's per-bucket
// table puts "qa (socket)" beside "qa (ui)". Run it against the built-in
// assistant:
//
//   usefullatency run --mock examples/chat-ui.js
//   usefullatency run --mock -e FAULTS=render_delay examples/chat-ui.js
//
// With render_delay the chat page holds every update back by 800 ms: the
// socket's gate still passes, the screen's fails (exit 99) — the answer
// was useful on the wire and late for the user.
//
// Environment: SUT_URL (set by --mock), DURATION (default 20s), FAULTS
// (comma-separated mock faults, e.g. render_delay).
import { browser } from 'k6/browser';
import usefulsse from 'k6/x/usefulsse';
import { check } from 'k6';

const base = __ENV.SUT_URL || 'http://127.0.0.1:8099';
const duration = __ENV.DURATION || '20s';
const faults = __ENV.FAULTS || '';
const useful = { fields: ['decision', 'reason', 'next_step'] };

export const options = {
  scenarios: {
    socket: {
      executor: 'constant-arrival-rate', rate: 2, timeUnit: '1s', duration,
      preAllocatedVUs: 8, maxVUs: 20, exec: 'socket',
    },
    screen: {
      // One Chromium per VU: a few VUs, an answer every two seconds.
      executor: 'constant-arrival-rate', rate: 1, timeUnit: '2s', duration,
      preAllocatedVUs: 3, maxVUs: 6, exec: 'screen',
      options: { browser: { type: 'chromium' } },
    },
  },
  thresholds: {
    'usefulsse_useful{bucket:qa,layer:socket}': ['med<1800'],
    // The screen may trail the socket by a frame or two, not by a second:
    // the same gate on what the user saw.
    'usefulsse_useful{bucket:qa,layer:ui}': ['med<1800'],
    'usefulsse_failed{layer:ui}': ['rate==0'],
  },
  summaryTrendStats: ['avg', 'med', 'p(95)', 'max'],
};

// socket streams one answer with the probe.
export function socket() {
  const res = usefulsse.post(`${base}/chat`, {
    bucket: 'qa', question: 'Can I get a refund for my order?', faults: faults.split(',').filter(Boolean),
  }, { dialect: 'business', useful, tags: { bucket: 'qa', layer: 'socket' } });
  check(res, { 'stream completed': (r) => r.error_code === '' }, { layer: 'socket' });
}

// screen asks the same question on the chat page and watches the answer.
export async function screen() {
  const page = await browser.newPage();
  try {
    await page.goto(`${base}/chat?bucket=qa&faults=${encodeURIComponent(faults)}`);
    const res = await usefulsse.watch(page, '.answer', {
      action: () => page.locator('#send').click(),
      useful,
      state: 'script[type="application/json"]',
      done: '[data-done]',
      tags: { bucket: 'qa' },
    });
    check(res, { 'answer shown': (r) => r.error_code === '' && r.useful_reached }, { layer: 'ui' });
  } finally {
    await page.close();
  }
}
