// compat: k6/browser — a page load reports k6's browser metrics: the web vitals browser_web_vital_fcp, _lcp, _cls and _ttfb, and browser_http_req_duration, browser_data_received and browser_data_sent, usable in thresholds
// expect: browser_web_vital_fcp
// expect: browser_http_req_duration
import { browser } from 'k6/browser';
import { Counter } from 'k6/metrics';

// completed counts the iterations that reached their end: an exception
// part-way fails the threshold.
const completed = new Counter('completed');

export const options = {
  scenarios: {
    ui: {
      executor: 'shared-iterations',
      options: { browser: { type: 'chromium' } },
    },
  },
  thresholds: {
    completed: ['count==1'],
    browser_web_vital_fcp: ['p(95)<10000'],
    browser_web_vital_lcp: ['p(95)<10000'],
    browser_web_vital_ttfb: ['p(95)<10000'],
    browser_web_vital_cls: ['max<1'],
    browser_http_req_duration: ['p(95)<10000'],
    browser_data_received: ['count>0'],
  },
};

export default async function () {
  const page = await browser.newPage();
  try {
    await page.goto(`${__ENV.ECHO}/site/`);
    await page.locator('h1').click();
    completed.add(1);
  } finally {
    await page.close();
  }
}
